package dev.trestle.samples.junit;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import java.util.List;

/**
 * An application's orders in Azure Table Storage, one partition per customer. It knows only the
 * Azure SDK; its tests run it against Trestle.
 */
public final class OrderStore {

  /** An order as the application sees it. */
  public record Order(String customer, String id, String product, int quantity, boolean shipped) {}

  private final TableClient orders;

  /** The store in the account of this connection string, as the application is configured. */
  public static OrderStore connect(String connectionString) {
    return new OrderStore(
        new TableServiceClientBuilder().connectionString(connectionString).buildClient());
  }

  public OrderStore(TableServiceClient service) {
    service.createTableIfNotExists("orders");
    this.orders = service.getTableClient("orders");
  }

  public void place(Order order) {
    orders.createEntity(
        new TableEntity(order.customer(), order.id())
            .addProperty("Product", order.product())
            .addProperty("Quantity", order.quantity())
            .addProperty("Shipped", order.shipped()));
  }

  public Order get(String customer, String id) {
    return order(orders.getEntity(customer, id));
  }

  /** The customer's orders in id order, however many pages the service answers in. */
  public List<Order> ordersOf(String customer) {
    ListEntitiesOptions query =
        new ListEntitiesOptions()
            .setFilter("PartitionKey eq '" + customer.replace("'", "''") + "'");
    return orders.listEntities(query, null, null).stream().map(OrderStore::order).toList();
  }

  /** The customer's orders not yet shipped. */
  public List<Order> unshipped(String customer) {
    ListEntitiesOptions query =
        new ListEntitiesOptions()
            .setFilter(
                "PartitionKey eq '" + customer.replace("'", "''") + "' and Shipped eq false");
    return orders.listEntities(query, null, null).stream().map(OrderStore::order).toList();
  }

  /** Marks an order shipped, keeping its other properties. */
  public void ship(String customer, String id) {
    orders.updateEntity(
        new TableEntity(customer, id).addProperty("Shipped", true), TableEntityUpdateMode.MERGE);
  }

  private static Order order(TableEntity entity) {
    return new Order(
        entity.getPartitionKey(),
        entity.getRowKey(),
        (String) entity.getProperty("Product"),
        (Integer) entity.getProperty("Quantity"),
        (Boolean) entity.getProperty("Shipped"));
  }
}
