import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises where a JFR recording's CPU samples ({@code jdk.ExecutionSample}) went: by layer (the innermost
 * frame outside the JDK decides: pgjdbc, jOOQ, Jetty, Trestle's store...), by method including callees (for
 * Trestle's own methods), and by top frame. Native samples ({@code jdk.NativeMethodSample}: threads blocked in
 * native code, mostly waiting on a socket for the database or the client) are summarised by layer too.
 * A single-file program for JDK 21+: {@code java bench/JfrHotSpots.java recording.jfr [rows]}.
 */
public final class JfrHotSpots {
  /** Package prefixes to layers; the first match wins, so more specific prefixes come first. */
  private static final Map<String, String> LAYERS = new LinkedHashMap<>();

  static {
    LAYERS.put("dev.trestle.server.", "trestle server");
    LAYERS.put("dev.trestle.store.", "trestle store");
    LAYERS.put("dev.trestle.filter.", "trestle filter");
    LAYERS.put("dev.trestle.model.", "trestle model");
    LAYERS.put("dev.trestle.cli.", "trestle cli");
    LAYERS.put("dev.trestle.", "trestle api");
    LAYERS.put("org.postgresql.", "pgjdbc");
    LAYERS.put("org.h2.", "H2 engine");
    LAYERS.put("org.jooq.", "jOOQ");
    LAYERS.put("com.zaxxer.hikari.", "HikariCP");
    LAYERS.put("com.fasterxml.jackson.", "Jackson");
    LAYERS.put("org.eclipse.jetty.", "Jetty");
    LAYERS.put("io.micrometer.", "Micrometer");
    LAYERS.put("ch.qos.logback.", "logback");
    LAYERS.put("org.slf4j.", "slf4j");
    LAYERS.put("org.flywaydb.", "Flyway");
  }

  private JfrHotSpots() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: java JfrHotSpots.java RECORDING.jfr [rows]");
      System.exit(2);
    }
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    Tally cpu = new Tally();
    Tally nativeWaits = new Tally();
    for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
      String type = event.getEventType().getName();
      if (event.getStackTrace() == null) {
        continue;
      }
      if (type.equals("jdk.ExecutionSample")) {
        cpu.add(event.getStackTrace().getFrames());
      } else if (type.equals("jdk.NativeMethodSample")) {
        nativeWaits.add(event.getStackTrace().getFrames());
      }
    }
    System.out.printf(Locale.ROOT, "CPU samples (jdk.ExecutionSample): %d%n", cpu.samples);
    print("CPU by layer (innermost non-JDK frame)", cpu.byLayer, cpu.samples, rows);
    print("CPU including callees, Trestle methods", cpu.inclusiveTrestle, cpu.samples, rows);
    print("CPU including callees, library entry points (jOOQ, pgjdbc, H2, Jackson)", cpu.inclusiveLibrary,
        cpu.samples, rows);
    print("CPU by top frame (self time)", cpu.byTopFrame, cpu.samples, rows);
    System.out.printf(Locale.ROOT, "%nNative samples (jdk.NativeMethodSample, threads blocked in native code): %d%n",
        nativeWaits.samples);
    print("Native samples by layer (innermost non-JDK frame)", nativeWaits.byLayer, nativeWaits.samples, rows);
  }

  private static void print(String title, Map<String, Integer> counts, long total, int rows) {
    System.out.printf(Locale.ROOT, "%n%s%n", title);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(rows)
        .forEach(e -> System.out.printf(Locale.ROOT, "  %5.1f%%  %6d  %s%n",
            total == 0 ? 0.0 : 100.0 * e.getValue() / total, e.getValue(), e.getKey()));
  }

  /** Sample counts of one event type, several ways. */
  private static final class Tally {
    long samples;
    final Map<String, Integer> byLayer = new HashMap<>();
    final Map<String, Integer> byTopFrame = new HashMap<>();
    final Map<String, Integer> inclusiveTrestle = new HashMap<>();
    final Map<String, Integer> inclusiveLibrary = new HashMap<>();

    void add(List<RecordedFrame> frames) {
      if (frames.isEmpty()) {
        return;
      }
      samples++;
      byTopFrame.merge(name(frames.get(0).getMethod()), 1, Integer::sum);
      String layer = "JDK only (GC, JIT or JDK threads)";
      for (RecordedFrame frame : frames) {
        String found = layer(frame.getMethod().getType().getName());
        if (found != null) {
          layer = found;
          break;
        }
      }
      byLayer.merge(layer, 1, Integer::sum);
      // Each method counts once per sample, however often it recurs in the stack.
      Set<String> seen = new HashSet<>();
      for (RecordedFrame frame : frames) {
        String className = frame.getMethod().getType().getName();
        String method = name(frame.getMethod());
        if (!seen.add(method)) {
          continue;
        }
        if (className.startsWith("dev.trestle.")) {
          inclusiveTrestle.merge(method, 1, Integer::sum);
        } else if (className.startsWith("org.jooq.") || className.startsWith("org.postgresql.")
            || className.startsWith("org.h2.") || className.startsWith("com.fasterxml.jackson.")) {
          inclusiveLibrary.merge(method, 1, Integer::sum);
        }
      }
    }
  }

  private static String layer(String className) {
    for (Map.Entry<String, String> layer : LAYERS.entrySet()) {
      if (className.startsWith(layer.getKey())) {
        return layer.getValue();
      }
    }
    return null;
  }

  private static String name(RecordedMethod method) {
    String type = method.getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + method.getName() + "  (" + type + ")";
  }
}
