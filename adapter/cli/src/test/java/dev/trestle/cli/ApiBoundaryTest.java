package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The CLI runs on the class path, where module exports are not checked: this test checks them.
 * Every Trestle class the CLI's main code refers to (read from its bytecode by jdeps) must lie in
 * the CLI itself or in a package that the module-info of core or the server exports, so the CLI
 * needs nothing an embedder could not use.
 */
class ApiBoundaryTest {
  private static final Pattern DEPENDENCY =
      Pattern.compile("^\\s+(\\S+)\\s+->\\s+(dev\\.trestle\\.\\S+)\\s");

  @Test
  void cliUsesOnlyTheExportedPackagesOfCoreAndServer() throws Exception {
    Set<String> exported = new TreeSet<>();
    exported.addAll(exportedPackages(TableService.class));
    exported.addAll(exportedPackages(TrestleServer.class));

    Set<String> outside = new TreeSet<>();
    Set<String> used = new TreeSet<>();
    for (String line : jdeps(location(Trestle.class)).split("\\R")) {
      Matcher dependency = DEPENDENCY.matcher(line);
      if (!dependency.find()) {
        continue;
      }
      String target = dependency.group(2);
      String targetPackage = target.substring(0, target.lastIndexOf('.'));
      if (targetPackage.equals("dev.trestle.cli") || targetPackage.startsWith("dev.trestle.cli.")) {
        continue;
      }
      used.add(targetPackage);
      if (!exported.contains(targetPackage)) {
        outside.add(dependency.group(1) + " -> " + target);
      }
    }

    assertThat(used)
        .as("jdeps found the CLI's uses of core and the server")
        .contains("dev.trestle.server");
    assertThat(outside)
        .as("CLI classes using packages that core and the server do not export")
        .isEmpty();
  }

  private static Set<String> exportedPackages(Class<?> member) throws URISyntaxException {
    ModuleDescriptor descriptor =
        ModuleFinder.of(location(member)).findAll().iterator().next().descriptor();
    assertThat(descriptor.isAutomatic()).as(descriptor.name() + " has a module-info").isFalse();
    Set<String> packages = new TreeSet<>();
    descriptor.exports().stream()
        .filter(export -> !export.isQualified())
        .forEach(export -> packages.add(export.source()));
    return packages;
  }

  private static Path location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static String jdeps(Path classes) {
    ToolProvider jdeps =
        ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("jdeps needs a JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        jdeps.run(
            new PrintWriter(out),
            new PrintWriter(err),
            "-verbose:class",
            "-e",
            "dev\\.trestle\\..*",
            classes.toString());
    assertThat(status).as("jdeps: " + err).isZero();
    return out.toString();
  }
}
