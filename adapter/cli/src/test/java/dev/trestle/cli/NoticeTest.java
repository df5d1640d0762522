package dev.trestle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The root NOTICE names every library the runnable jar bundles: the build unpacks each runtime
 * dependency's license files under {@code META-INF/third-party/<artifact>-<version>-jar}, and each
 * such artifact (or its family, the name before its first dash) must appear in NOTICE.
 */
class NoticeTest {

  @Test
  void noticeNamesEveryBundledLibrary() throws IOException {
    Path thirdParty = Path.of("target/classes/META-INF/third-party");
    assertThat(thirdParty).isDirectory();
    String notice = Files.readString(Path.of("../../NOTICE")).toLowerCase(Locale.ROOT);
    List<String> artifacts;
    try (Stream<Path> dirs = Files.list(thirdParty)) {
      artifacts =
          dirs.map(dir -> dir.getFileName().toString())
              .map(name -> name.replaceFirst("-\\d[^-]*(-[^-]+)?-jar$", ""))
              .toList();
    }
    assertThat(artifacts).isNotEmpty();
    assertThat(artifacts)
        .allSatisfy(
            artifact -> {
              String name = artifact.toLowerCase(Locale.ROOT);
              String family = name.contains("-") ? name.substring(0, name.indexOf('-')) : name;
              assertThat(notice.contains(name) || notice.contains(family))
                  .as("NOTICE names %s", artifact)
                  .isTrue();
            });
  }
}
