package dev.trestle.cli.crash;

import java.io.IOException;

/**
 * What one kind of crash test writes and checks: clients that write through a server until it is
 * killed, and a check, through the restarted server, that every acknowledged write is there and no
 * transaction is half there. {@link KillCycles} runs one against kill after kill.
 */
interface Scenario {
  /** Before the first cycle: the tables and their settings. */
  void prepare(SignedHttp http) throws IOException, InterruptedException;

  /** Starts the clients of one cycle; they stop by themselves when the server dies. */
  void start(SignedHttp http, int clients, int cycle);

  /** Stops the clients and waits for them. */
  void stop() throws InterruptedException;

  /** Writes acknowledged so far, over every cycle. */
  int acknowledgedWrites();

  /**
   * Compares what the restarted server holds with what was acknowledged; then takes what is stored
   * as the acknowledged state for the next cycle.
   */
  Verifier.Findings verify(SignedHttp http) throws IOException, InterruptedException;

  /** What was checked beyond the acknowledged writes, for the log line. */
  String tally();
}
