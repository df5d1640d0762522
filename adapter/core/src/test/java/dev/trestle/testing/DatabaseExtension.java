package dev.trestle.testing;

import dev.trestle.TableService;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/** Provides one invocation of a {@link DatabaseTest} per database, with its parameters. */
final class DatabaseExtension implements TestTemplateInvocationContextProvider {

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return AnnotationSupport.isAnnotated(context.getTestMethod(), DatabaseTest.class);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(
      ExtensionContext context) {
    DatabaseTest annotation =
        AnnotationSupport.findAnnotation(context.getTestMethod(), DatabaseTest.class).orElseThrow();
    return Arrays.stream(annotation.value())
        .filter(kind -> kind != TestDatabase.Kind.POSTGRESQL_SCALAR_STORE || wanted(annotation))
        .map(Invocation::new);
  }

  /**
   * Whether a test runs on the database with the scalar store: always when it names it, and by
   * default unless the module's tests set {@code trestle.test.scalarStoreByDefault=false}.
   */
  private static boolean wanted(DatabaseTest annotation) {
    return !Arrays.equals(annotation.value(), DEFAULT_KINDS)
        || Boolean.parseBoolean(System.getProperty("trestle.test.scalarStoreByDefault", "true"));
  }

  private static final TestDatabase.Kind[] DEFAULT_KINDS = defaultKinds();

  private static TestDatabase.Kind[] defaultKinds() {
    try {
      return (TestDatabase.Kind[]) DatabaseTest.class.getMethod("value").getDefaultValue();
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  private record Invocation(TestDatabase.Kind kind) implements TestTemplateInvocationContext {
    @Override
    public String getDisplayName(int invocationIndex) {
      return "[" + kind.displayName() + "]";
    }

    @Override
    public List<org.junit.jupiter.api.extension.Extension> getAdditionalExtensions() {
      return List.of(new Resolver(kind));
    }
  }

  /**
   * Resolves parameters for one invocation; the database itself starts on first use, before the
   * test (so a missing PostgreSQL skips the test, or fails it under CI, rather than erring in
   * parameter resolution). On PostgreSQL, fails the test whose services sent a transaction that a
   * database distributed by partition key could not run on one shard ({@link
   * PartitionConfinement}).
   */
  private record Resolver(TestDatabase.Kind kind)
      implements ParameterResolver, BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(Resolver.class);
    private static final String ACCOUNTS = "accounts";

    @Override
    public void beforeEach(ExtensionContext context) {
      TestDatabase.get(kind);
      PartitionConfinement.takeViolations();
    }

    @Override
    public void afterEach(ExtensionContext context) {
      checkScalarStore(context);
      List<String> violations = PartitionConfinement.takeViolations();
      if (!violations.isEmpty()
          && !AnnotationSupport.isAnnotated(context.getTestMethod(), MultiShardWrites.class)
          && !AnnotationSupport.isAnnotated(context.getTestClass(), MultiShardWrites.class)) {
        throw new AssertionError(
            "Statements a database distributed by partition key cannot confine to one shard:\n  "
                + String.join("\n  ", violations));
      }
    }

    /**
     * With the scalar store, every entity the test's services wrote has exactly its scalar row,
     * whatever the test did: a missing or stale one would hide the entity from a filter.
     */
    private void checkScalarStore(ExtensionContext context) {
      if (kind != TestDatabase.Kind.POSTGRESQL_SCALAR_STORE) {
        return;
      }
      @SuppressWarnings("unchecked")
      List<String> accounts = context.getStore(NAMESPACE).get(ACCOUNTS, List.class);
      if (accounts == null) {
        return;
      }
      TestDatabase database = TestDatabase.get(kind);
      for (String account : accounts) {
        if (!HandWrittenRows.wroteTo(account)) {
          ScalarStoreCheck.assertConsistent(database, account);
        }
      }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      Class<?> type = parameter.getParameter().getType();
      return type == TableService.class || type == TestDatabase.class || type == DataSource.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      TestDatabase database = TestDatabase.get(kind);
      Class<?> type = parameter.getParameter().getType();
      if (type == TestDatabase.class) {
        return database;
      }
      if (type == DataSource.class) {
        return database.dataSource();
      }
      boolean extensionsOff =
          org.junit.platform.commons.support.AnnotationSupport.isAnnotated(
              context.getRequiredTestClass(), ExtensionsOff.class);
      boolean relaxed =
          AnnotationSupport.isAnnotated(
              context.getRequiredTestClass(), RelaxedTransactionsOn.class);
      TableService service =
          extensionsOff
              ? database.newServiceWithExtensionsOff()
              : relaxed
                  ? database.newServiceBuilder().relaxedTransactions(true).build()
                  : database.newService();
      context
          .getStore(NAMESPACE)
          .put(parameter.getIndex(), (ExtensionContext.Store.CloseableResource) service::close);
      @SuppressWarnings("unchecked")
      List<String> accounts =
          context
              .getStore(NAMESPACE)
              .getOrComputeIfAbsent(
                  ACCOUNTS,
                  key -> new java.util.concurrent.CopyOnWriteArrayList<String>(),
                  List.class);
      accounts.add(service.accountName());
      return service;
    }
  }
}
