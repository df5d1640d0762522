package dev.trestle.server.auth.internal;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeader;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An SDK transport that sends nothing: it records each request the official SDK signed and answers
 * 400, which the SDK does not retry. Lets tests check signatures exactly as the SDK computes them.
 */
public final class SdkCapture implements HttpClient {
  private final List<HttpRequest> requests = new ArrayList<>();

  public SdkCapture() {}

  @Override
  public Mono<HttpResponse> send(HttpRequest request) {
    requests.add(request);
    return Mono.just(new Refusal(request));
  }

  /** Runs an SDK call and returns the body of the request it sent (empty when it had none). */
  public byte[] captureBody(Runnable sdkCall) {
    capture(sdkCall);
    HttpRequest request = requests.get(requests.size() - 1);
    return request.getBodyAsBinaryData() == null
        ? new byte[0]
        : request.getBodyAsBinaryData().toBytes();
  }

  /** Runs an SDK call, ignoring the error our refusal causes, and returns the request it sent. */
  FakeRequest capture(Runnable sdkCall) {
    int before = requests.size();
    try {
      sdkCall.run();
    } catch (RuntimeException expected) {
      // The refusal makes every call fail; only the request matters.
    }
    if (requests.size() == before) {
      throw new AssertionError("the SDK sent no request");
    }
    return toSignedRequest(requests.get(before));
  }

  static FakeRequest toSignedRequest(HttpRequest request) {
    FakeRequest signed =
        FakeRequest.of(request.getHttpMethod().name(), request.getUrl().toString());
    signed.path(request.getUrl().getPath());
    for (HttpHeader header : request.getHeaders()) {
      signed.header(header.getName(), header.getValue());
    }
    return signed;
  }

  private static final class Refusal extends HttpResponse {
    private static final byte[] BODY =
        ("{\"odata.error\":{\"code\":\"InvalidInput\",\"message\":{\"lang\":\"en-US\","
                + "\"value\":\"captured\"}}}")
            .getBytes(StandardCharsets.UTF_8);

    Refusal(HttpRequest request) {
      super(request);
    }

    @Override
    public int getStatusCode() {
      return 400;
    }

    @Override
    @Deprecated
    public String getHeaderValue(String name) {
      return getHeaders().getValue(name);
    }

    @Override
    public HttpHeaders getHeaders() {
      return new HttpHeaders()
          .set("Content-Type", "application/json;odata=minimalmetadata")
          .set("x-ms-error-code", "InvalidInput");
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      return Flux.just(ByteBuffer.wrap(BODY));
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return Mono.just(BODY);
    }

    @Override
    public Mono<String> getBodyAsString() {
      return Mono.just(new String(BODY, StandardCharsets.UTF_8));
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return Mono.just(new String(BODY, charset));
    }
  }
}
