package dev.trestle.junit;

import dev.trestle.TableService;
import dev.trestle.server.TrestleServer;
import java.lang.reflect.AnnotatedElement;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts an in-process Trestle server for JUnit 5 tests and injects it (see {@link TrestleTest} for
 * the parameters). Registered by {@link TrestleTest}, which configures it; or in code, for settings
 * an annotation cannot carry:
 *
 * <pre>{@code
 * @RegisterExtension
 * static TrestleExtension trestle =
 *     TrestleExtension.builder().dataSource(testDataSource).reset(Reset.PER_TEST).build();
 * }</pre>
 *
 * <p>The server starts before the class's first test (or its {@code @BeforeAll} methods) and is
 * shared, per test run, by every class with equal settings; it stops when the run ends. Its
 * database is created and migrated on start, and dropped at the end when it is the default H2 in
 * memory. Registered on an instance field instead of a static one, the extension only comes in
 * before each test, so {@code @BeforeAll} methods cannot take its parameters. Under JUnit's
 * parallel execution, give a class that registers it in code
 * {@code @ResourceLock(TrestleTest.LOCK)}, as {@link TrestleTest} does.
 */
public final class TrestleExtension
    implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

  /** Where the shared servers live: the root context's store, closed when the test run ends. */
  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(TrestleExtension.class);

  /**
   * The handles, per top-level test class and settings: extensions registered on a test instance (a
   * new one per test) then find the handle of the first, and reset only once per class.
   */
  private static final ExtensionContext.Namespace HANDLES =
      ExtensionContext.Namespace.create(TrestleExtension.class, Trestle.class);

  private final ServerSettings settings;
  private final Reset reset;

  /**
   * The extension as {@code @ExtendWith(TrestleExtension.class)} creates it: configured by the test
   * class's {@link TrestleTest} annotation, else with the defaults (H2 in memory, a free port,
   * reset before each class).
   */
  public TrestleExtension() {
    this(null, null);
  }

  private TrestleExtension(ServerSettings settings, Reset reset) {
    this.settings = settings;
    this.reset = reset;
  }

  /** Configures an extension for {@code @RegisterExtension}; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    trestle(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    Trestle trestle = trestle(context);
    if (reset(context) == Reset.PER_TEST) {
      trestle.reset();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (parameter.isAnnotated(ConnectionString.class)) {
      return requireType(parameter, ConnectionString.class, type == String.class);
    }
    if (parameter.isAnnotated(Endpoint.class)) {
      return requireType(parameter, Endpoint.class, type == String.class || type == URI.class);
    }
    return type == Trestle.class || type == TableService.class || AzureSdkClients.supports(type);
  }

  private static boolean requireType(
      ParameterContext parameter, Class<?> annotation, boolean supported) {
    if (!supported) {
      throw new ParameterResolutionException(
          "@"
              + annotation.getSimpleName()
              + " goes on a String"
              + (annotation == Endpoint.class ? " or URI" : "")
              + " parameter, not on "
              + parameter.getParameter());
    }
    return true;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Trestle trestle = trestle(context);
    Class<?> type = parameter.getParameter().getType();
    if (parameter.isAnnotated(ConnectionString.class)) {
      return trestle.connectionString();
    }
    if (parameter.isAnnotated(Endpoint.class)) {
      return type == URI.class ? URI.create(trestle.endpoint()) : trestle.endpoint();
    }
    if (type == Trestle.class) {
      return trestle;
    }
    if (type == TableService.class) {
      return trestle.tableService();
    }
    return trestle.sdkClient(type);
  }

  /**
   * The handle of the top-level class the context belongs to, starting (or joining) the server and
   * resetting it for the class on first use. Lifecycle methods, constructors and {@code @Nested}
   * classes all come here first, whichever runs first.
   */
  private Trestle trestle(ExtensionContext context) {
    ExtensionContext classContext = topLevelClassContext(context);
    ServerSettings wanted = settings(classContext);
    return classContext
        .getStore(HANDLES)
        .getOrComputeIfAbsent(
            wanted,
            key -> {
              Trestle trestle = new Trestle(shared(classContext, wanted));
              if (reset(classContext) != Reset.NEVER) {
                trestle.reset();
              }
              return trestle;
            },
            Trestle.class);
  }

  private SharedServer shared(ExtensionContext context, ServerSettings wanted) {
    return context
        .getRoot()
        .getStore(SHARED)
        .getOrComputeIfAbsent(wanted, key -> SharedServer.start(wanted), SharedServer.class);
  }

  private static ExtensionContext topLevelClassContext(ExtensionContext context) {
    ExtensionContext classContext = context;
    while (classContext.getTestMethod().isPresent()
        || classContext.getParent().flatMap(ExtensionContext::getTestClass).isPresent()) {
      classContext = classContext.getParent().orElseThrow();
    }
    return classContext;
  }

  private ServerSettings settings(ExtensionContext context) {
    if (settings != null) {
      return settings;
    }
    TrestleTest annotation = annotation(context);
    return new Builder()
        .jdbcUrl(annotation == null || annotation.jdbcUrl().isEmpty() ? null : annotation.jdbcUrl())
        .port(annotation == null ? 0 : annotation.port())
        .settings();
  }

  private Reset reset(ExtensionContext context) {
    if (reset != null) {
      return reset;
    }
    TrestleTest annotation = annotation(context);
    return annotation == null ? Reset.PER_CLASS : annotation.reset();
  }

  /** The {@link TrestleTest} of the test class or, for a {@code @Nested} one, the nearest outer. */
  private static TrestleTest annotation(ExtensionContext context) {
    for (Class<?> type = context.getTestClass().orElse(null);
        type != null;
        type = type.getEnclosingClass()) {
      TrestleTest annotation = findAnnotation(type);
      if (annotation != null) {
        return annotation;
      }
    }
    return null;
  }

  private static TrestleTest findAnnotation(AnnotatedElement element) {
    return AnnotationSupport.findAnnotation(element, TrestleTest.class).orElse(null);
  }

  /**
   * The settings of a {@link TrestleExtension}, all optional: without any, H2 in memory on a free
   * port, serving {@code devstoreaccount1} with the emulator's key, emptied before each class.
   */
  public static final class Builder {
    private String jdbcUrl;
    private String username;
    private String password;
    private DataSource dataSource;
    private int port;
    private final Map<String, String> accounts = new LinkedHashMap<>();
    private Reset reset = Reset.PER_CLASS;

    private Builder() {}

    /**
     * The database by JDBC URL, e.g. {@code jdbc:postgresql://localhost/test} (its driver on the
     * class path); null (the default) for a private H2 database in memory.
     */
    public Builder jdbcUrl(String jdbcUrl) {
      this.jdbcUrl = jdbcUrl;
      return this;
    }

    /** User and password for {@link #jdbcUrl(String)}; none by default. */
    public Builder credentials(String username, String password) {
      this.username = username;
      this.password = password;
      return this;
    }

    /**
     * The database as a {@code DataSource}, which the extension never closes. Tests share a server
     * on it when they pass the same object.
     */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = dataSource;
      return this;
    }

    /** The port on 127.0.0.1; 0 (the default) picks a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0 (a free one) to 65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Serves this account with this base64 key, instead of {@code devstoreaccount1}; the first
     * account added is the default one. Repeat for several.
     */
    public Builder account(String name, String base64Key) {
      accounts.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(base64Key, "key"));
      return this;
    }

    /** When the server is emptied; default {@link Reset#PER_CLASS}. */
    public Builder reset(Reset reset) {
      this.reset = Objects.requireNonNull(reset, "reset");
      return this;
    }

    /**
     * The extension, for a {@code static} field annotated {@code @RegisterExtension}.
     *
     * @throws IllegalStateException when both a JDBC URL and a DataSource are set
     */
    public TrestleExtension build() {
      return new TrestleExtension(settings(), reset);
    }

    private ServerSettings settings() {
      if (jdbcUrl != null && dataSource != null) {
        throw new IllegalStateException(
            "Set at most one of jdbcUrl(...) or dataSource(...): the server uses one database.");
      }
      Map<String, String> served = new LinkedHashMap<>(accounts);
      if (served.isEmpty()) {
        served.put(TableService.DEFAULT_ACCOUNT, TrestleServer.DEV_ACCOUNT_KEY);
      }
      return ServerSettings.of(jdbcUrl, username, password, dataSource, port, served);
    }
  }
}
