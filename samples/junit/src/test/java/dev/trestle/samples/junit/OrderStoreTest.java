package dev.trestle.samples.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableServiceException;
import dev.trestle.TableEntity;
import dev.trestle.TableOperation;
import dev.trestle.TableService;
import dev.trestle.junit.Reset;
import dev.trestle.junit.TrestleTest;
import dev.trestle.samples.junit.OrderStore.Order;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The application's store, tested against the real Table API in this JVM: {@code @TrestleTest}
 * starts Trestle (H2 in memory) and hands each test a ready Azure SDK client. {@code PER_TEST}
 * empties it before each test, so tests do not see each other's orders.
 */
@TrestleTest(reset = Reset.PER_TEST)
class OrderStoreTest {
  OrderStore store;

  @BeforeEach
  void connect(TableServiceClient service) {
    store = new OrderStore(service);
  }

  @Test
  void placesAndReadsAnOrder() {
    store.place(new Order("ada", "o-1", "Trestle", 3, false));

    assertThat(store.get("ada", "o-1")).isEqualTo(new Order("ada", "o-1", "Trestle", 3, false));
  }

  @Test
  void aSecondOrderWithTheSameIdIsRefusedAsAzureRefusesIt() {
    store.place(new Order("ada", "o-1", "Trestle", 3, false));

    assertThatThrownBy(() -> store.place(new Order("ada", "o-1", "Other", 1, false)))
        .isInstanceOfSatisfying(
            TableServiceException.class,
            e -> assertThat(e.getResponse().getStatusCode()).isEqualTo(409));
  }

  @Test
  void shippingKeepsTheOtherPropertiesAndLeavesTheUnshippedList() {
    store.place(new Order("ada", "o-1", "Trestle", 3, false));
    store.place(new Order("ada", "o-2", "Bolts", 100, false));

    store.ship("ada", "o-1");

    assertThat(store.get("ada", "o-1")).isEqualTo(new Order("ada", "o-1", "Trestle", 3, true));
    assertThat(store.unshipped("ada")).extracting(Order::id).containsExactly("o-2");
  }

  @Test
  void listsEveryOrderOfACustomerAcrossPages(TableService library) {
    // Seeded through the embedded library on the same database: no HTTP, 100 orders a transaction.
    library.createTableIfNotExists("orders");
    for (int batch = 0; batch < 12; batch++) {
      List<TableOperation> operations = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        operations.add(
            TableOperation.insert(
                TableEntity.builder("grace", String.format("o-%04d", batch * 100 + i))
                    .put("Product", "Bolts")
                    .put("Quantity", i)
                    .put("Shipped", false)
                    .build()));
      }
      library.tableClient("orders").submitTransaction(operations);
    }
    store.place(new Order("ada", "o-1", "Trestle", 3, false));

    // 1,200 orders: the service answers in pages of 1,000, which the SDK follows.
    List<Order> orders = store.ordersOf("grace");
    assertThat(orders).hasSize(1200);
    assertThat(orders.get(1199).id()).isEqualTo("o-1199");
  }

  @Test
  void eachTestStartsWithNoOrders() {
    assertThat(store.ordersOf("ada")).isEmpty();
  }
}
