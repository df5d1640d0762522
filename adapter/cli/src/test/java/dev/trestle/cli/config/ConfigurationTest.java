package dev.trestle.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigurationTest {
  @TempDir Path dir;

  @Test
  void flagWinsOverEnvironmentWhichWinsOverFileWhichWinsOverDefault() throws IOException {
    Path file = write("port=3000\nhost=10.0.0.1\npool-size=7\n");
    Configuration configuration =
        Configuration.load(
            file.toString(), Map.of("TRESTLE_PORT", "2000", "TRESTLE_HOST", "0.0.0.0"));

    assertThat(configuration.resolve(Setting.PORT, "1000"))
        .isEqualTo(new Configuration.Value("1000", "--port"));
    assertThat(configuration.resolve(Setting.PORT, null))
        .isEqualTo(new Configuration.Value("2000", "TRESTLE_PORT"));
    assertThat(configuration.string(Setting.HOST, null)).isEqualTo("0.0.0.0");
    assertThat(configuration.resolve(Setting.POOL_SIZE, null).text()).isEqualTo("7");
    assertThat(configuration.resolve(Setting.POOL_SIZE, null).source()).contains("config file");
    assertThat(configuration.resolve(Setting.DB_WAIT, null))
        .isEqualTo(new Configuration.Value("30", "default"));
  }

  @Test
  void configFileComesFromTheEnvironmentWhenNoFlagNamesIt() throws IOException {
    Path file = write("port=3000\n");
    Configuration configuration =
        Configuration.load(null, Map.of("TRESTLE_CONFIG", file.toString()));
    assertThat(configuration.integer(Setting.PORT, null, 0, 65535)).isEqualTo(3000);
  }

  @Test
  void emptyEnvironmentVariableCountsAsUnset() {
    Configuration configuration = Configuration.load(null, Map.of("TRESTLE_PORT", ""));
    assertThat(configuration.integer(Setting.PORT, null, 0, 65535)).isEqualTo(10002);
  }

  @Test
  void unknownKeyInConfigFileIsNamed() throws IOException {
    Path file = write("prot=3000\n");
    assertThatThrownBy(() -> Configuration.load(file.toString(), Map.of()))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Unknown setting 'prot'")
        .hasMessageContaining("port");
  }

  @Test
  void missingConfigFileNamesThePathAndWhereItCameFrom() {
    assertThatThrownBy(
            () ->
                Configuration.load(null, Map.of("TRESTLE_CONFIG", dir.resolve("nope").toString())))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining("TRESTLE_CONFIG");
  }

  @Test
  void badNumberNamesSettingSourceAndRange() {
    Configuration configuration = Configuration.load(null, Map.of("TRESTLE_PORT", "http"));
    assertThatThrownBy(() -> configuration.integer(Setting.PORT, null, 0, 65535))
        .hasMessage(
            "--port must be a whole number from 0 to 65535, but was 'http' (from TRESTLE_PORT).");
    assertThatThrownBy(() -> configuration.integer(Setting.PORT, "70000", 0, 65535))
        .hasMessage("--port must be a whole number from 0 to 65535, but was '70000'.");
  }

  @Test
  void booleansAcceptCommonSpellingsAndRejectOthers() {
    Configuration configuration =
        Configuration.load(null, Map.of("TRESTLE_ALLOW_ANONYMOUS", "yes"));
    assertThat(configuration.bool(Setting.ALLOW_ANONYMOUS, null)).isTrue();
    assertThat(configuration.bool(Setting.ALLOW_ANONYMOUS, false)).isFalse();
    Configuration wrong = Configuration.load(null, Map.of("TRESTLE_ALLOW_ANONYMOUS", "maybe"));
    assertThatThrownBy(() -> wrong.bool(Setting.ALLOW_ANONYMOUS, null))
        .hasMessageContaining("true or false");
  }

  @Test
  void listsSplitOnCommasAndWhitespaceAndFlagsReplaceTheVariable() {
    Configuration configuration =
        Configuration.load(null, Map.of("TRESTLE_ACCOUNT", "a:QQ==, b:Qg=="));
    assertThat(configuration.list(Setting.ACCOUNT, null)).containsExactly("a:QQ==", "b:Qg==");
    assertThat(configuration.list(Setting.ACCOUNT, List.of("c:Qw=="))).containsExactly("c:Qw==");
  }

  @Test
  void passwordIsNeverEchoedInErrors() {
    Configuration configuration = Configuration.load(null, Map.of());
    Configuration.Value value = configuration.resolve(Setting.DB_PASSWORD, "s3cret");
    assertThat(Configuration.invalid(Setting.DB_PASSWORD, value, "x").getMessage())
        .doesNotContain("s3cret");
  }

  private Path write(String content) throws IOException {
    Path file = dir.resolve("trestle.properties");
    Files.writeString(file, content);
    return file;
  }
}
