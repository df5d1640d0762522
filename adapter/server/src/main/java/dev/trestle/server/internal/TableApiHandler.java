package dev.trestle.server.internal;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;
import dev.trestle.TableService;
import dev.trestle.json.MetadataLevel;
import dev.trestle.model.TableLimits;
import dev.trestle.server.auth.internal.AuthenticationFailedException;
import dev.trestle.server.auth.internal.Grant;
import dev.trestle.server.auth.internal.RequestAuthenticator;
import dev.trestle.server.auth.internal.SasParameters;
import dev.trestle.server.internal.batch.RelaxedBatch;
import dev.trestle.server.internal.endpoints.CallContext;
import dev.trestle.server.internal.endpoints.ServicePropertiesCache;
import dev.trestle.server.internal.http.ApiResponse;
import dev.trestle.server.internal.http.ApiVersion;
import dev.trestle.server.internal.http.BodyReader;
import dev.trestle.server.internal.http.ErrorResponses;
import dev.trestle.server.internal.http.JettySignedRequest;
import dev.trestle.server.internal.http.MediaFormats;
import dev.trestle.server.internal.http.PercentCodec;
import dev.trestle.server.internal.http.RequestEvents;
import dev.trestle.server.internal.http.RequestIds;
import dev.trestle.server.internal.routing.AccountResolver;
import dev.trestle.server.internal.routing.HttpCall;
import dev.trestle.server.internal.routing.ResourcePath;
import dev.trestle.server.internal.routing.Route;
import dev.trestle.server.internal.routing.SecondaryEndpoint;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.content.ByteBufferContentSource;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Table REST API as one Jetty handler: resolves the account and route, authenticates, reads the
 * body within limits, dispatches, and maps every failure to the service's error response. It never
 * lets an exception reach Jetty, so clients never see a stack trace.
 */
public final class TableApiHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(TableApiHandler.class);

  private final TableService rootService;
  private final Set<String> accounts;
  private final AccountResolver resolver;
  private final RequestAuthenticator authenticator;
  private final Clock clock;
  private final Map<String, TableService> services = new ConcurrentHashMap<>();
  private final ServicePropertiesCache properties;
  private final boolean skipApiVersionCheck;

  /**
   * @param hostStyleUrls whether an account named by the host ({@code account.table.suffix}) is
   *     recognised; path-style URLs always are
   */
  public TableApiHandler(
      TableService rootService,
      Set<String> accounts,
      boolean hostStyleUrls,
      RequestAuthenticator authenticator,
      Clock clock) {
    this(
        rootService,
        accounts,
        hostStyleUrls,
        authenticator,
        clock,
        false,
        java.time.Duration.ofSeconds(5));
  }

  /**
   * @param skipApiVersionCheck whether {@code x-ms-version}s after the newest known one are served
   *     (Azurite's {@code --skipApiVersionCheck}) instead of refused
   * @param settingsRefresh how long CORS rules read from the database are used before being read
   *     again
   */
  public TableApiHandler(
      TableService rootService,
      Set<String> accounts,
      boolean hostStyleUrls,
      RequestAuthenticator authenticator,
      Clock clock,
      boolean skipApiVersionCheck,
      java.time.Duration settingsRefresh) {
    this.skipApiVersionCheck = skipApiVersionCheck;
    this.rootService = rootService;
    this.accounts = Set.copyOf(accounts);
    this.resolver = new AccountResolver(accounts, hostStyleUrls);
    this.authenticator = authenticator;
    this.clock = clock;
    this.properties = new ServicePropertiesCache(clock, settingsRefresh);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long started = System.nanoTime();
    String requestId = RequestIds.next();
    ApiResponse result;
    boolean closeConnection = false;
    try {
      result = process(request, requestId);
    } catch (TableException e) {
      result =
          ErrorResponses.json(
              e.errorCode(), e.getMessage(), requestId, MetadataLevel.MINIMAL, clock);
      closeConnection = e.errorCode() == TableErrorCode.REQUEST_BODY_TOO_LARGE;
    } catch (RuntimeException e) {
      LOG.error(
          "Request {} {} failed unexpectedly (request id {})",
          request.getMethod(),
          request.getHttpURI().getPath(),
          requestId,
          e);
      result =
          ErrorResponses.json(
              TableErrorCode.INTERNAL_ERROR,
              "Server encountered an internal error. Please try again after some time.",
              requestId,
              MetadataLevel.MINIMAL,
              clock);
    }
    if (result.status() == 401) {
      ApiResponse unauthorized = result;
      authenticator
          .bearerChallenge()
          .ifPresent(challenge -> unauthorized.header("WWW-Authenticate", challenge));
    }
    closeConnection = closeConnection || !BodyReader.drain(request);
    send(request, response, callback, result, requestId, closeConnection);
    if (LOG.isDebugEnabled()) {
      // the path only: query strings may carry SAS signatures
      LOG.debug(
          "{} {} -> {} in {} ms (request id {})",
          request.getMethod(),
          request.getHttpURI().getPath(),
          result.status(),
          (System.nanoTime() - started) / 1_000_000,
          requestId);
    }
    return true;
  }

  private ApiResponse process(Request request, String requestId) {
    Map<String, List<String>> query = PercentCodec.parseQuery(request.getHttpURI().getQuery());
    boolean preflight = request.getMethod().equals("OPTIONS");
    if (preflight) {
      // answered from the CORS rules alone, whatever the path
      RequestEvents.decided(request, TableApi.PREFLIGHT);
    }
    ResourcePath addressed =
        resolver.resolve(Request.getServerName(request), request.getHttpURI().getPath());
    Map<String, String> headers = headers(request);
    if (!preflight) {
      RequestEvents.decided(
          request,
          TableApi.operation(
              addressed.route(),
              HttpCall.effectiveMethodOrNull(request.getMethod(), headers),
              query,
              headers.containsKey("If-Match")));
    }
    ResourcePath path = SecondaryEndpoint.primary(addressed, accounts, query);
    RequestEvents.addressed(request, path.account());
    HttpCall call = null;
    try {
      if (!accounts.contains(path.account())) {
        throw new TableException(
            TableErrorCode.AUTHENTICATION_FAILED,
            "Server failed to authenticate the request. The account '"
                + path.account()
                + "' does not exist here.");
      }
      if (preflight) {
        return preflight(request, path);
      }
      if (path != addressed) {
        SecondaryEndpoint.requireRead(request.getMethod());
      }
      if (query.getOrDefault("comp", List.of()).size() > 1) {
        // routing would read one value while a Shared Key signature covers them all
        throw new TableException(
            TableErrorCode.INVALID_QUERY_PARAMETER_VALUE,
            "Value for one of the query parameters specified in the request URI is invalid: comp"
                + " is given more than once.");
      }
      ApiVersion.check(request.getHeaders().get("x-ms-version"), skipApiVersionCheck);
      Grant grant =
          authenticator.authenticate(new JettySignedRequest(request, query), path.account());
      if (path == addressed) {
        SecondaryEndpoint.requireSecondaryForStats(path.route(), query);
      }
      byte[] body =
          BodyReader.read(
              request, RelaxedBatch.bodyLimit(path.route(), query, service(path.account())));
      // SAS parameters are credentials, not OData options
      Map<String, List<String>> options = new java.util.LinkedHashMap<>(query);
      options.keySet().removeIf(SasParameters::isSasParameter);
      call =
          new HttpCall(
              request.getMethod(),
              path.route(),
              headers,
              options,
              body,
              baseUrl(request, addressed),
              path.account(),
              addressed.hostStyle());
      if (!TableApi.speaksXml(call) && !(call.route() instanceof Route.Batch)) {
        String format = TableApi.first(query, "$format");
        MediaFormats.check(
            headers.get("x-ms-version"),
            format != null ? format : headers.get("Accept"),
            body.length == 0 ? null : headers.get("Content-Type"));
      }
      CallContext ctx = new CallContext(service(path.account()), grant, requestId, clock);
      return withCors(request, path.account(), TableApi.dispatch(call, ctx, properties));
    } catch (TableException e) {
      boolean xml =
          call != null
              ? TableApi.speaksXml(call)
              : path.route() instanceof Route.ServiceRoot
                  || (path.route() instanceof Route.EntitySet && query.containsKey("comp"));
      if (xml) {
        String detail = e instanceof AuthenticationFailedException failed ? failed.detail() : null;
        return withCors(
            request,
            path.account(),
            ErrorResponses.xml(e.errorCode(), e.getMessage(), detail, requestId, clock));
      }
      MetadataLevel level =
          MetadataLevel.negotiate(
              TableApi.first(query, "$format"), request.getHeaders().get("Accept"));
      // JSON errors have no AuthenticationErrorDetail element: the detail goes into the message
      String message =
          e instanceof AuthenticationFailedException failed && failed.detail() != null
              ? e.getMessage() + " " + failed.detail()
              : e.getMessage();
      return withCors(
          request,
          path.account(),
          ErrorResponses.json(e.errorCode(), message, requestId, level, clock));
    }
  }

  /** A CORS preflight: answered from the account's CORS rules alone, without credentials. */
  private ApiResponse preflight(Request request, ResourcePath path) {
    Map<String, String> allowed =
        properties
            .corsPolicy(service(path.account()))
            .matchPreflight(
                request.getHeaders().get("Origin"),
                request.getHeaders().get("Access-Control-Request-Method"),
                request.getHeaders().get("Access-Control-Request-Headers"));
    ApiResponse response = ApiResponse.status(200);
    allowed.forEach(response::header);
    return response;
  }

  /** Adds the CORS headers an actual request with an Origin earns; CORS never fails a request. */
  private ApiResponse withCors(Request request, String account, ApiResponse response) {
    String origin = request.getHeaders().get("Origin");
    if (origin == null || !accounts.contains(account)) {
      return response;
    }
    try {
      Map<String, String> headers =
          properties
              .corsPolicy(service(account))
              .matchRequest(origin, request.getMethod(), responseHeaderNames(request, response));
      headers.forEach(response::header);
    } catch (RuntimeException e) {
      LOG.warn(
          "CORS rules of account {} could not be read; answering without CORS headers", account, e);
    }
    return response;
  }

  private TableService service(String account) {
    return services.computeIfAbsent(
        account,
        name ->
            name.equals(rootService.accountName()) ? rootService : rootService.forAccount(name));
  }

  private static Map<String, String> headers(Request request) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (HttpField field : request.getHeaders()) {
      headers.merge(field.getName(), field.getValue(), (a, b) -> a + "," + b);
    }
    return headers;
  }

  /** Where the account's resources are, in the style of the request. */
  private static String baseUrl(Request request, ResourcePath addressed) {
    String host = request.getHeaders().get(HttpHeader.HOST);
    if (host == null || host.isBlank()) {
      host = Request.getServerName(request) + ":" + Request.getServerPort(request);
    }
    String root = (request.isSecure() ? "https" : "http") + "://" + host;
    return addressed.hostStyle() ? root : root + "/" + addressed.account();
  }

  /**
   * The headers the answer will carry: its own and those {@link #send} adds to every answer, which
   * a CORS rule's exposed prefixes ({@code x-ms-*}, {@code *}) reach too.
   */
  private static List<String> responseHeaderNames(Request request, ApiResponse response) {
    List<String> names = new java.util.ArrayList<>(response.headers().keySet());
    names.addAll(List.of("Cache-Control", "Date", "x-ms-request-id", "x-ms-version"));
    if (request.getHeaders().get("x-ms-client-request-id") != null) {
      names.add("x-ms-client-request-id");
    }
    return names;
  }

  private void send(
      Request request,
      Response response,
      Callback callback,
      ApiResponse result,
      String requestId,
      boolean closeConnection) {
    response.setStatus(result.status());
    var headers = response.getHeaders();
    headers.put("Cache-Control", "no-cache");
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("x-ms-request-id", requestId);
    String version = request.getHeaders().get("x-ms-version");
    headers.put(
        "x-ms-version", version == null || version.isBlank() ? TableLimits.API_VERSION : version);
    String clientRequestId = request.getHeaders().get("x-ms-client-request-id");
    if (clientRequestId != null) {
      headers.put("x-ms-client-request-id", clientRequestId);
    }
    result.headers().forEach(headers::put);
    if (closeConnection) {
      headers.put(HttpHeader.CONNECTION, "close");
    }
    headers.put(HttpHeader.CONTENT_LENGTH, result.bodyLength());
    List<ByteBuffer> body = result.bodyBuffers();
    if (request.getMethod().toUpperCase(Locale.ROOT).equals("HEAD")) {
      response.write(true, null, callback);
    } else if (body.size() == 1) {
      response.write(true, body.get(0), callback);
    } else {
      Content.copy(new ByteBufferContentSource(body), response, callback);
    }
  }
}
