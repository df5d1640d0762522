package dev.trestle.server.internal.http;

import dev.trestle.server.auth.internal.SignedRequest;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Request;

/** The request as the authenticator sees it: the verb and path exactly as sent. */
public final class JettySignedRequest implements SignedRequest {
  private final Request request;
  private final Map<String, List<String>> query;

  public JettySignedRequest(Request request, Map<String, List<String>> query) {
    this.request = request;
    this.query = query;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String rawPath() {
    return request.getHttpURI().getPath();
  }

  @Override
  public List<String> queryParameters(String name) {
    return query.getOrDefault(name, List.of());
  }

  @Override
  public String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public List<String> headerValues(String name) {
    return request.getHeaders().getValuesList(name);
  }

  @Override
  public String remoteAddress() {
    return Request.getRemoteAddr(request);
  }

  @Override
  public boolean secure() {
    return request.isSecure();
  }
}
