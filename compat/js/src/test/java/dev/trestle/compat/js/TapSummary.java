package dev.trestle.compat.js;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The totals and failure reports of node:test's TAP output. Cases marked {@code todo} run but do
 * not fail the suite; they stand for a known gap and are counted apart.
 */
record TapSummary(int tests, int passed, int failed, int todo, String failures) {
  private static final Pattern TOTAL = Pattern.compile("(?m)^# (tests|pass|fail|todo) (\\d+)$");
  private static final Pattern NOT_OK = Pattern.compile("^\\s*not ok \\d+ - (?!.*# TODO)");

  static TapSummary of(String tap) {
    int tests = -1;
    int passed = -1;
    int failed = -1;
    int todo = 0;
    Matcher total = TOTAL.matcher(tap);
    while (total.find()) {
      int value = Integer.parseInt(total.group(2));
      switch (total.group(1)) {
        case "tests" -> tests = value;
        case "pass" -> passed = value;
        case "todo" -> todo = value;
        default -> failed = value;
      }
    }
    return new TapSummary(tests, passed, failed, todo, failureReports(tap));
  }

  // Each failing case's "not ok" line with the YAML block under it (error, expected, actual,
  // location).
  private static String failureReports(String tap) {
    List<String> report = new ArrayList<>();
    String[] lines = tap.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (NOT_OK.matcher(lines[i]).find()) {
        report.add(lines[i].strip());
        for (int j = i + 1;
            j < lines.length && j < i + 25 && !lines[j].strip().equals("...");
            j++) {
          report.add("    " + lines[j].strip());
        }
      }
    }
    return String.join("\n", report);
  }
}
