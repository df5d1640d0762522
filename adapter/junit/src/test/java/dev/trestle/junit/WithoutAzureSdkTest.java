package dev.trestle.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableEntity;
import dev.trestle.TableService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The extension with the Azure SDK off the class path: the build runs this class alone in a
 * surefire execution that leaves azure-data-tables out, proving the SDK an optional dependency.
 */
@TrestleTest
class WithoutAzureSdkTest {

  @Test
  void theAzureSdkIsNotOnTheClassPath() {
    assertThatThrownBy(() -> Class.forName("com.azure.data.tables.TableServiceClient"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void theServerAnswersAndTheOtherParametersAreInjected(
      @Endpoint URI endpoint, @ConnectionString String connectionString, TableService library)
      throws Exception {
    library.createTable("plain");
    library.tableClient("plain").insert(TableEntity.builder("p", "r").put("N", 1).build());
    assertThat(connectionString).contains("TableEndpoint=" + endpoint + ";");

    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> unsigned =
          http.send(
              HttpRequest.newBuilder(URI.create(endpoint + "/plain()")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(unsigned.statusCode()).isEqualTo(401);
      assertThat(unsigned.headers().firstValue("x-ms-error-code"))
          .hasValue("NoAuthenticationInformation");
    }
  }
}
