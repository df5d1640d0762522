package dev.trestle.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Runs the annotated test class against an in-process Trestle server on a free port, over H2 in
 * memory unless {@link #jdbcUrl()} names another database. Test, lifecycle and constructor
 * parameters of these types are injected:
 *
 * <ul>
 *   <li>{@link Trestle}: the handle (connection string, endpoint, account, {@link Trestle#reset()})
 *   <li>{@code @}{@link ConnectionString} {@code String}, {@code @}{@link Endpoint} {@code String}
 *       or {@code URI}
 *   <li>{@link dev.trestle.TableService}: the embedded library on the same data, to seed or check
 *       without HTTP
 *   <li>{@code com.azure.data.tables.TableServiceClient} and {@code TableServiceAsyncClient}, when
 *       the Azure SDK is on the test's class path
 * </ul>
 *
 * <p>Test classes with the same settings share one server per test run, so only the first pays for
 * starting it; {@link #reset()} says when it is emptied (default: before each class). Because they
 * share it, such classes take the {@linkplain #LOCK same lock} under JUnit's parallel execution:
 * they run one after another, other tests beside them. {@link TrestleExtension#builder()}
 * configures the same extension in code, e.g. with a {@code DataSource}.
 *
 * <pre>{@code
 * @TrestleTest
 * class OrdersTest {
 *   @Test
 *   void storesAnOrder(TableServiceClient service) {
 *     TableClient orders = service.createTable("orders");
 *     orders.createEntity(new TableEntity("customer-1", "order-1").addProperty("Total", 9.5));
 *     assertEquals(9.5, orders.getEntity("customer-1", "order-1").getProperty("Total"));
 *   }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(TrestleExtension.class)
@ResourceLock(TrestleTest.LOCK)
public @interface TrestleTest {

  /** The resource lock that test classes sharing a Trestle server hold. */
  String LOCK = "dev.trestle.junit.TrestleServer";

  /**
   * The database, e.g. {@code jdbc:postgresql://localhost:5432/test?user=test&password=test} (its
   * driver on the test class path) or {@code jdbc:h2:file:./target/tables}; empty (the default) for
   * a private H2 database in memory. Trestle creates its tables there on start.
   */
  String jdbcUrl() default "";

  /** When the server is emptied: before each class (the default), each test, or never. */
  Reset reset() default Reset.PER_CLASS;

  /**
   * The port to listen on, 0 (the default) for a free one. {@code 10002} lets code that uses {@code
   * UseDevelopmentStorage=true} reach it.
   */
  int port() default 0;
}
