package dev.trestle.junit;

import com.azure.data.tables.TableServiceAsyncClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import java.util.Set;

/**
 * The Azure SDK clients the extension can inject. The only class naming the SDK, loaded only when a
 * test asks for one of its clients, so the SDK stays an optional dependency.
 */
final class AzureSdkClients {
  /** The client types by name: checking a parameter's type must not load the SDK. */
  private static final Set<String> TYPES =
      Set.of(
          "com.azure.data.tables.TableServiceClient",
          "com.azure.data.tables.TableServiceAsyncClient");

  private AzureSdkClients() {}

  static boolean supports(Class<?> type) {
    return TYPES.contains(type.getName());
  }

  /** A client of this type for the connection string; clients are thread-safe and reusable. */
  static Object create(Class<?> type, String connectionString) {
    TableServiceClientBuilder builder =
        new TableServiceClientBuilder().connectionString(connectionString);
    if (type == TableServiceClient.class) {
      return builder.buildClient();
    }
    if (type == TableServiceAsyncClient.class) {
      return builder.buildAsyncClient();
    }
    throw new IllegalArgumentException(
        "Not an Azure SDK client Trestle injects: " + type.getName());
  }
}
