package dev.trestle.server.support;

import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * The Azure SDK's Netty HTTP client as a test needs it: every host name (e.g. {@code
 * account.table.trestle.test}) resolves to 127.0.0.1, so host-style URLs reach the test's server
 * with their names in the Host header and in TLS; and, for HTTPS, trusting the test's certificate.
 */
public final class SdkHttp {
  private SdkHttp() {}

  /** Plain HTTP, names resolved to the loopback address. */
  public static HttpClient loopback() {
    return new NettyAsyncHttpClientBuilder(
            reactor.netty.http.client.HttpClient.create().resolver(LoopbackNames.INSTANCE))
        .build();
  }

  /** HTTPS trusting {@code certificate} (and HTTP), names resolved to the loopback address. */
  public static HttpClient trusting(X509Certificate certificate) {
    SslContext tls;
    try {
      tls = SslContextBuilder.forClient().trustManager(certificate).build();
    } catch (SSLException e) {
      throw new IllegalStateException(e);
    }
    return new NettyAsyncHttpClientBuilder(
            reactor.netty.http.client.HttpClient.create()
                .resolver(LoopbackNames.INSTANCE)
                .secure(ssl -> ssl.sslContext(tls)))
        .build();
  }

  /** Resolves every name to 127.0.0.1, keeping the name (for SNI and certificate checks). */
  private static final class LoopbackNames extends AddressResolverGroup<InetSocketAddress> {
    static final LoopbackNames INSTANCE = new LoopbackNames();

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
      return new InetNameResolver(executor) {
        @Override
        protected void doResolve(String host, Promise<InetAddress> promise) {
          promise.setSuccess(loopback(host));
        }

        @Override
        protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
          promise.setSuccess(List.of(loopback(host)));
        }
      }.asAddressResolver();
    }

    private static InetAddress loopback(String host) {
      try {
        return InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1});
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
