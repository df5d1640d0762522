package dev.trestle.cli;

import dev.trestle.cli.config.Account;
import dev.trestle.cli.config.EndpointSettings;
import dev.trestle.cli.config.IndexDeclaration;
import dev.trestle.cli.config.ServerSettings;
import dev.trestle.cli.config.Setting;
import dev.trestle.cli.config.TokenSettings;
import dev.trestle.server.ServerCertificate;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "serve",
    aliases = "azurite-table",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Serve the Azure Table REST API. Applies the schema first; waits for the database to come up.",
      "Defaults: H2 file database under ./trestle-data, 127.0.0.1:10002, the development account.",
      "Azurite's table options are accepted under their own names (second name of an option below);"
          + " 'trestle azurite-table' is this command."
    },
    footer = {
      "",
      "Azurite's AZURITE_ACCOUNTS (name1:key1[:key2];name2:key1) and AZURITE_SKIP_API_VERSION_CHECK"
          + " are read after TRESTLE_ACCOUNT and TRESTLE_SKIP_API_VERSION_CHECK.",
      "Every setting also comes from TRESTLE_<NAME> (e.g. TRESTLE_DB, TRESTLE_PORT) or the --config file.",
      "Precedence: flags, then environment variables, then the config file, then defaults."
    })
final class ServeCommand implements Callable<Integer> {
  @ParentCommand Trestle trestle;

  @Mixin DatabaseOptions database;

  @Option(
      names = {"--host", "--tableHost"},
      paramLabel = "ADDRESS",
      order = 10,
      description =
          "Address to listen on; 0.0.0.0 for all interfaces. Env TRESTLE_HOST. Default: 127.0.0.1")
  String host;

  @Option(
      names = {"--port", "--tablePort"},
      paramLabel = "PORT",
      order = 11,
      description = "Port to listen on; 0 picks a free one. Env TRESTLE_PORT. Default: 10002")
  String port;

  @Option(
      names = "--account",
      paramLabel = "NAME:KEY[:KEY2]",
      order = 12,
      description =
          "Storage account and base64 key(s); repeatable (comma-separated in TRESTLE_ACCOUNT). "
              + "Default: devstoreaccount1 with the emulator's well-known key.")
  List<String> accounts;

  @Option(
      names = "--allow-anonymous",
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 13,
      description =
          "Accept requests without credentials. Env TRESTLE_ALLOW_ANONYMOUS. Default: false")
  Boolean allowAnonymous;

  @Option(
      names = "--log-level",
      paramLabel = "LEVEL",
      order = 14,
      description =
          "error, warn, info or debug (one line per request). Env TRESTLE_LOG_LEVEL. Default: info")
  String logLevel;

  @Option(
      names = "--ops-port",
      paramLabel = "PORT",
      order = 15,
      description =
          "Serve /health and /metrics on this port only, not on the API port; 0 picks a free one. "
              + "Env TRESTLE_OPS_PORT. Default: none (on the API port, open to anyone who reaches it)")
  String opsPort;

  @Option(
      names = "--ops-host",
      paramLabel = "ADDRESS",
      order = 16,
      description =
          "Address for --ops-port, e.g. 127.0.0.1 while --host is 0.0.0.0. Env TRESTLE_OPS_HOST. "
              + "Default: the --host address")
  String opsHost;

  @Option(
      names = "--header-timeout",
      paramLabel = "SECONDS",
      order = 17,
      description =
          "How long a request line and headers may take from their first byte; later ones get 408 and"
              + " the connection closes. 0 turns it off. Env TRESTLE_HEADER_TIMEOUT. Default: 10")
  String headerTimeout;

  @Option(
      names = "--min-body-rate",
      paramLabel = "BYTES",
      order = 18,
      description =
          "Bytes per second a request body must keep up after its first 5 seconds; a slower one gets 500"
              + " OperationTimedOut and the connection closes. 0 turns it off. Env TRESTLE_MIN_BODY_RATE. Default: 500")
  String minBodyRate;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      order = 19,
      description =
          "Connections served at once; more wait until one closes. 0 removes the cap. "
              + "Env TRESTLE_MAX_CONNECTIONS. Default: 2000")
  String maxConnections;

  @Option(
      names = "--settings-refresh",
      paramLabel = "SECONDS",
      order = 19,
      description =
          "With several servers on one database: how long CORS rules changed through another server may"
              + " still be applied here. 0 reads them on every request with an Origin. "
              + "Env TRESTLE_SETTINGS_REFRESH. Default: 5")
  String settingsRefresh;

  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      order = 20,
      description =
          "text, or json (one object a line, for log shippers). Env TRESTLE_LOG_FORMAT. Default: text")
  String logFormat;

  @Option(
      names = "--oauth",
      paramLabel = "off|basic|jwks",
      order = 21,
      description =
          "Accept Authorization: Bearer tokens (Entra ID style). basic: checks audience, issuer and"
              + " lifetime but not the signature (tests only); jwks: verifies the signature too."
              + " Env TRESTLE_OAUTH. Default: off")
  String oauth;

  @Option(
      names = "--oauth-jwks",
      paramLabel = "FILE|URL",
      order = 22,
      description =
          "The signing keys for --oauth jwks: a JWK set file or URL. Env TRESTLE_OAUTH_JWKS."
              + " Default: the keys of --oauth-issuer's OpenID configuration")
  String oauthJwks;

  @Option(
      names = "--oauth-issuer",
      paramLabel = "URL",
      order = 23,
      description =
          "The token issuer (iss) to require, e.g. https://login.microsoftonline.com/TENANT/v2.0."
              + " Env TRESTLE_OAUTH_ISSUER. Default: any Entra ID issuer")
  String oauthIssuer;

  @Option(
      names = "--oauth-grants",
      paramLabel = "FILE",
      order = 24,
      description =
          "Lines of CLAIM=VALUE ACCOUNT PERMISSIONS (read,write,delete,manage or all; account * for"
              + " all), e.g. oid=... devstoreaccount1 read. Env TRESTLE_OAUTH_GRANTS."
              + " Default: with basic, every valid token may do everything; jwks requires it")
  String oauthGrants;

  @Option(
      names = "--oauth-allow-http",
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 25,
      description =
          "Accept Bearer tokens over plain HTTP, which Azure refuses (tests only)."
              + " Env TRESTLE_OAUTH_ALLOW_HTTP. Default: false")
  Boolean oauthAllowHttp;

  @Option(
      names = "--cert",
      paramLabel = "FILE",
      order = 26,
      description =
          "Serve HTTPS (only) with this certificate: a PEM file (with --key, or holding the key"
              + " too), or a PKCS#12 .pfx/.p12 file (with --pwd). Env TRESTLE_CERT. Default: none, plain HTTP")
  String cert;

  @Option(
      names = "--key",
      paramLabel = "FILE",
      order = 27,
      description =
          "The PEM private key of --cert (PKCS#8, or OpenSSL's RSA or EC form). Env TRESTLE_KEY")
  String key;

  @Option(
      names = "--pwd",
      paramLabel = "PASSWORD",
      order = 28,
      description =
          "The password of a PKCS#12 --cert, or of an encrypted --key. Env TRESTLE_PWD"
              + " (preferred: flags show in process lists)")
  String pwd;

  @Option(
      names = {"--disable-product-style-url", "--disableProductStyleUrl"},
      paramLabel = "true|false",
      arity = "0..1",
      fallbackValue = "true",
      order = 29,
      description =
          "Take the account from the path only, never from the host name (ACCOUNT.table.SUFFIX,"
              + " ACCOUNT.localhost). Env TRESTLE_DISABLE_PRODUCT_STYLE_URL. Default: false")
  Boolean disableProductStyleUrl;

  @Option(
      names = "--index",
      paramLabel = "[ACCOUNT/]TABLE:PROPERTY:TYPE",
      order = 30,
      description =
          "Declares a property index, created at start-up (in the background, without blocking"
              + " writes) unless it exists, e.g. Orders:Status:String or Orders:Timestamp:DateTime;"
              + " over several properties in order, Orders:Status:String+Placed:DateTime;"
              + " repeatable. See trestle index. Env TRESTLE_INDEX (comma-separated). Default: none")
  List<String> indexes;

  @Option(
      names = "--extensions",
      paramLabel = "on|off",
      order = 40,
      description =
          "Trestle's extensions beyond Azure (/$count, trestle-orderby, trestle-delete; see the"
              + " README); off answers each with NotImplemented. Env TRESTLE_EXTENSIONS. Default: on")
  String extensions;

  @Option(
      names = "--relaxed-transactions",
      paramLabel = "off|on|OPERATIONS:MIB",
      order = 41,
      description =
          "Transactions beyond Azure's (POST /$batch?trestle-transaction=relaxed): more than 100"
              + " operations and 4 MiB, across partitions and tables; on allows 10000 operations and"
              + " 32 MiB of entities. Needs --extensions on; does not scale out on Citus."
              + " Env TRESTLE_RELAXED_TRANSACTIONS. Default: off")
  String relaxedTransactions;

  @Option(
      names = "--ttl-sweep-interval",
      paramLabel = "SECONDS",
      order = 42,
      description =
          "How often expired entities (time to live) are removed, a bounded batch each time; 0"
              + " never (they stay absent to reads). Env TRESTLE_TTL_SWEEP_INTERVAL. Default: 60")
  String ttlSweepInterval;

  @Option(
      names = "--ttl-sweep-batch",
      paramLabel = "ROWS",
      order = 43,
      description =
          "The entities one sweep reads at most, of one table, deleting the expired ones a"
              + " partition per transaction. Env TRESTLE_TTL_SWEEP_BATCH. Default: 1000")
  String ttlSweepBatch;

  @Option(
      names = "--feed-sweep-interval",
      paramLabel = "SECONDS",
      order = 44,
      description =
          "How often changes older than their feed's retention are removed, a bounded batch of one"
              + " table's feed each time; 0 never. Env TRESTLE_FEED_SWEEP_INTERVAL. Default: 60")
  String feedSweepInterval;

  @Option(
      names = "--feed-sweep-batch",
      paramLabel = "CHANGES",
      order = 45,
      description =
          "The changes one feed sweep removes at most, of one table, in one transaction. Env"
              + " TRESTLE_FEED_SWEEP_BATCH. Default: 10000")
  String feedSweepBatch;

  @Mixin EmulatorOptions emulator;

  /** The expiry sweep's schedule, checked. */
  ExpirySweeps.Schedule expirySweep() {
    var configuration = database.configuration(trestle.environment());
    return new ExpirySweeps.Schedule(
        Duration.ofSeconds(
            configuration.integer(Setting.TTL_SWEEP_INTERVAL, ttlSweepInterval, 0, 86_400)),
        configuration.integer(Setting.TTL_SWEEP_BATCH, ttlSweepBatch, 1, 1_000_000));
  }

  /** The change-feed sweep's schedule, checked. */
  FeedSweeps.Schedule feedSweep() {
    var configuration = database.configuration(trestle.environment());
    return new FeedSweeps.Schedule(
        Duration.ofSeconds(
            configuration.integer(Setting.FEED_SWEEP_INTERVAL, feedSweepInterval, 0, 86_400)),
        configuration.integer(Setting.FEED_SWEEP_BATCH, feedSweepBatch, 1, 1_000_000));
  }

  /** The indexes the settings declare, each checked. */
  List<IndexDeclaration> declaredIndexes() {
    return IndexDeclaration.resolve(database.configuration(trestle.environment()), indexes);
  }

  /** Parses and checks every setting without touching the database or the network. */
  ServerSettings settings() {
    emulator.refuseUnsupported();
    return ServerSettings.resolve(
        database.configuration(trestle.environment()),
        database.flags(),
        new ServerSettings.ServerFlags(
            host,
            port,
            accounts,
            allowAnonymous,
            emulator.logLevel(logLevel),
            opsHost,
            opsPort,
            headerTimeout,
            minBodyRate,
            maxConnections,
            extensions,
            settingsRefresh,
            relaxedTransactions),
        new TokenSettings.TokenFlags(oauth, oauthJwks, oauthIssuer, oauthGrants, oauthAllowHttp),
        logFormat,
        new EndpointSettings.EndpointFlags(cert, key, pwd, disableProductStyleUrl),
        emulator.flags());
  }

  @Override
  public Integer call() throws InterruptedException {
    ServerSettings settings = settings();
    List<IndexDeclaration> declaredIndexes = declaredIndexes();
    ExpirySweeps.Schedule sweep = expirySweep();
    FeedSweeps.Schedule feedSweep = feedSweep();
    Logging.setTrestleLevel(settings.logLevel());
    Logging.setFormat(settings.logFormat());
    Logging.setAccessLog(settings.logOutput().accessLog());
    settings
        .logOutput()
        .file()
        .ifPresent(file -> Logging.addFile(file, emulator.debugFile != null ? "info" : null));
    ServerRuntime runtime = ServerRuntime.start(settings);
    DeclaredIndexes.createInBackground(runtime, declaredIndexes);
    ExpirySweeps.startInBackground(runtime, sweep);
    FeedSweeps.startInBackground(runtime, feedSweep);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  runtime.close();
                  stopped.countDown();
                },
                "trestle-shutdown"));
    printBanner(runtime, trestle.out());
    stopped.await();
    return ExitCode.OK;
  }

  static void printBanner(ServerRuntime runtime, PrintWriter out) {
    Account account = runtime.primaryAccount();
    String endpoint = runtime.endpoint(account.name());
    boolean wellKnownKey =
        account.name().equals(Account.DEV_ACCOUNT) && runtime.settings().accounts().isEmpty();
    out.println("Trestle " + VersionInfo.version() + " serves the Table API at " + endpoint);
    out.println("  database: " + runtime.settings().database().redactedUrl());
    if (runtime.settings().database().isInMemory()) {
      out.println("  in memory: NOT durable, every table and entity is lost when the server stops");
    }
    String ops = runtime.operationsUrl();
    out.println(
        "  health:   "
            + ops
            + "/health    metrics: "
            + ops
            + "/metrics"
            + (runtime.settings().operations().isPresent() ? "    (operations port)" : ""));
    runtime
        .settings()
        .tokens()
        .ifPresent(
            tokens ->
                out.println(
                    "  Bearer tokens: "
                        + tokens.mode().name().toLowerCase(java.util.Locale.ROOT)
                        + (tokens.httpAllowed()
                            ? ", also over plain HTTP (--oauth-allow-http)"
                            : "")));
    runtime
        .settings()
        .endpoint()
        .certificate()
        .ifPresent(certificate -> out.println("  " + certificateLine(certificate)));
    runtime
        .settings()
        .relaxedTransactions()
        .ifPresent(
            bounds ->
                out.println(
                    "  relaxed transactions: on, up to "
                        + bounds.maxOperations()
                        + " operations and "
                        + (bounds.maxBytes() >> 20)
                        + " MiB (--relaxed-transactions)"));
    if (!runtime.settings().extensions()) {
      out.println("  extensions: off, each answers NotImplemented (--extensions off)");
    }
    if (runtime.settings().allowAnonymous()) {
      out.println("  anonymous requests are accepted (--allow-anonymous)");
    }
    if (runtime.settings().leniency().undatedSharedKey()) {
      out.println("  Shared Key without any date is accepted (--loose)");
    }
    if (runtime.settings().leniency().skipApiVersionCheck()) {
      out.println(
          "  x-ms-versions after "
              + dev.trestle.model.TableLimits.NEWEST_API_VERSION
              + " are served (--skip-api-version-check)");
    }
    out.println("Connection string (Azure SDKs for .NET, Java, JavaScript, Python):");
    out.println(
        "  "
            + connectionString(
                account.name(), wellKnownKey ? account.keys().getFirst() : "<your key>", endpoint));
    out.println("Press Ctrl+C to stop.");
    out.flush();
  }

  /** The certificate served: its subject, the names it is valid for, and until when. */
  static String certificateLine(ServerCertificate certificate) {
    java.time.Instant expiry = certificate.certificate().getNotAfter().toInstant();
    boolean expired = expiry.isBefore(java.time.Instant.now());
    return "certificate: "
        + certificate.certificate().getSubjectX500Principal().getName()
        + (certificate.names().isEmpty() ? "" : ", for " + String.join(", ", certificate.names()))
        + (expired ? ", EXPIRED on " : ", valid until ")
        + expiry.toString().substring(0, 10);
  }

  static String connectionString(String account, String key, String endpoint) {
    String protocol = endpoint.startsWith("https://") ? "https" : "http";
    return "DefaultEndpointsProtocol="
        + protocol
        + ";AccountName="
        + account
        + ";AccountKey="
        + key
        + ";TableEndpoint="
        + endpoint
        + ";";
  }
}
