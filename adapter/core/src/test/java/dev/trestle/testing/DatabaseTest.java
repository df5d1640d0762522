package dev.trestle.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test once per database, shown as {@code [H2]} and {@code [PostgreSQL]}.
 * Parameters of type {@link dev.trestle.TableService} (a service for a fresh account on that
 * database, closed after the test), {@link TestDatabase} and {@link javax.sql.DataSource} are
 * resolved for each run.
 *
 * <p>PostgreSQL comes from {@code TRESTLE_TEST_PG_URL}, else Testcontainers where Docker runs, else
 * an embedded PostgreSQL. When none can be had, the PostgreSQL runs are skipped, except with {@code
 * CI=true}, where they fail.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(DatabaseExtension.class)
public @interface DatabaseTest {
  /** The databases to run on; a test limited to one says so in its name. */
  TestDatabase.Kind[] value() default {
    TestDatabase.Kind.H2, TestDatabase.Kind.POSTGRESQL, TestDatabase.Kind.POSTGRESQL_SCALAR_STORE
  };
}
