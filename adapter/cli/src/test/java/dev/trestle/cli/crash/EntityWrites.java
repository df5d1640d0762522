package dev.trestle.cli.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

/**
 * The Azure writes of {@link Workload} on one table (inserts, upserts, merges, 100-entity batches,
 * deletes when asked), checked by {@link Verifier} against the {@link Ledger}.
 */
class EntityWrites implements Scenario {
  final Ledger ledger = new Ledger();
  final String table;
  private final Workload workload;

  EntityWrites(String table, boolean deletes) {
    this.table = table;
    this.workload = new Workload(ledger, table, deletes);
  }

  @Override
  public void prepare(SignedHttp http) throws IOException, InterruptedException {
    assertThat(http.json("POST", "/Tables", "{\"TableName\":\"" + table + "\"}", null).status())
        .isEqualTo(201);
  }

  @Override
  public void start(SignedHttp http, int clients, int cycle) {
    workload.start(http, clients, cycle);
  }

  @Override
  public void stop() throws InterruptedException {
    workload.stop();
  }

  @Override
  public int acknowledgedWrites() {
    return ledger.acknowledgedWrites();
  }

  @Override
  public Verifier.Findings verify(SignedHttp http) throws IOException, InterruptedException {
    return Verifier.check(http, table, ledger);
  }

  @Override
  public String tally() {
    return ledger.batches.size() + " batches of 100 among them";
  }
}
