package dev.trestle.samples.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trestle.junit.ConnectionString;
import dev.trestle.junit.Trestle;
import dev.trestle.junit.TrestleTest;
import dev.trestle.samples.junit.OrderStore.Order;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application configured by connection string gets Trestle's in {@code @BeforeAll}, as it would
 * get Azure's or Azurite's from its configuration. This class shares the server started for {@link
 * OrderStoreTest} (same settings), and starts empty all the same (the default, {@code PER_CLASS}).
 */
@TrestleTest
class ConnectionStringTest {
  static OrderStore store;

  @BeforeAll
  static void configure(@ConnectionString String connectionString) {
    store = OrderStore.connect(connectionString);
  }

  @Test
  void theApplicationTalksToTrestleThroughItsConnectionString(Trestle trestle) {
    store.place(new Order("lin", "o-1", "Trestle", 1, false));

    assertThat(store.ordersOf("lin")).extracting(Order::product).containsExactly("Trestle");
    // the same order, read through the library on the server's database
    assertThat(trestle.tableService().tableClient("orders").get("lin", "o-1").getInt32("Quantity"))
        .isEqualTo(1);
  }
}
