package dev.trestle.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.trestle.TableService;
import dev.trestle.server.support.RawHttp;
import dev.trestle.server.support.SdkHttp;
import dev.trestle.server.support.ServerFixture;
import dev.trestle.testing.DatabaseTest;
import dev.trestle.testing.TestCertificates;
import dev.trestle.testing.TestCertificates.Issued;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS with the server's own certificate: the Java SDK with {@code
 * DefaultEndpointsProtocol=https}, HTTP/1.1 keep-alive over one TLS connection, links in https, and
 * plain HTTP refused on the port.
 */
class HttpsTest {
  @TempDir Path dir;
  private TrestleServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @DatabaseTest
  void theJavaSdkWorksOverHttpsWithAPemCertificate(TableService tables) {
    Issued certificate = TestCertificates.selfSigned("EC", "localhost", "127.0.0.1");
    String account = tables.accountName();
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .tls(
                ServerCertificate.fromPem(
                    certificate.writeCertificate(dir.resolve("cert.pem")),
                    certificate.writeKeyTraditional(dir.resolve("key.pem")),
                    null))
            .build()
            .start();
    assertThat(server.endpoint(account)).startsWith("https://127.0.0.1:");

    String connectionString =
        "DefaultEndpointsProtocol=https;AccountName="
            + account
            + ";AccountKey="
            + TrestleServer.DEV_ACCOUNT_KEY
            + ";TableEndpoint="
            + server.endpoint(account)
            + ";";
    TableServiceClient sdk =
        new TableServiceClientBuilder()
            .connectionString(connectionString)
            .httpClient(SdkHttp.trusting(certificate.certificate()))
            .buildClient();
    String name = ServerFixture.uniqueName("https");
    TableClient table = sdk.createTable(name);
    table.createEntity(new TableEntity("p", "1").addProperty("Size", 1L));
    table.submitTransaction(
        IntStream.rangeClosed(2, 30)
            .mapToObj(
                i ->
                    new TableTransactionAction(
                        TableTransactionActionType.UPSERT_REPLACE,
                        new TableEntity("p", String.format("%02d", i))
                            .addProperty("Size", (long) i)))
            .toList());
    assertThat(
            table
                .listEntities(
                    new ListEntitiesOptions().setFilter("Size ge 10L").setTop(7), null, null)
                .stream()
                .count())
        .isEqualTo(21);
    assertThat(table.getEntity("p", "1").getProperty("Size")).isEqualTo(1L);
    assertThat(sdk.listTables().stream().map(t -> t.getName())).contains(name);
    sdk.deleteTable(name);
  }

  @DatabaseTest
  void requestsShareOneTlsConnectionAndLinksAreHttps(TableService tables) throws Exception {
    Issued certificate = TestCertificates.selfSigned("EC", "localhost", "127.0.0.1");
    Path pfx = certificate.writePkcs12(dir.resolve("server.pfx"), "pfx-pass".toCharArray());
    String account = tables.accountName();
    server =
        TrestleServer.builder(tables)
            .port(0)
            .account(account, TrestleServer.DEV_ACCOUNT_KEY)
            .allowAnonymous(true)
            .tls(ServerCertificate.fromPkcs12(pfx, "pfx-pass".toCharArray()))
            .build()
            .start();
    String table = ServerFixture.uniqueName("keep");
    tables.createTable(table);

    try (RawHttp connection =
        new RawHttp(
            certificate
                .clientContext()
                .getSocketFactory()
                .createSocket("127.0.0.1", server.port()))) {
      for (int i = 0; i < 3; i++) {
        RawHttp.Reply reply =
            connection.send(
                "GET",
                "/" + account + "/Tables",
                "127.0.0.1:" + server.port(),
                null,
                "x-ms-version",
                "2019-02-02",
                "Accept",
                "application/json;odata=minimalmetadata");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.header("Connection")).isNull();
        assertThat(reply.body())
            .contains(
                "\"odata.metadata\":\"https://127.0.0.1:"
                    + server.port()
                    + "/"
                    + account
                    + "/$metadata#Tables\"")
            .contains(table);
      }
    }
  }

  @DatabaseTest
  void plainHttpIsNotAnsweredOnTheHttpsPort(TableService tables) throws Exception {
    Issued certificate = TestCertificates.selfSigned("EC", "localhost");
    server =
        TrestleServer.builder(tables)
            .port(0)
            .allowAnonymous(true)
            .tls(
                ServerCertificate.read(
                    certificate.writeCombined(dir.resolve("both.pem")), null, null))
            .build()
            .start();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      byte[] answer = readUpTo(socket.getInputStream(), 5);
      assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotStartWith("HTTP/");
    }
  }

  private static byte[] readUpTo(InputStream in, int bytes) {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    try {
      for (int b = in.read(); b >= 0 && read.size() < bytes; b = in.read()) {
        read.write(b);
      }
    } catch (IOException e) {
      // a reset connection: nothing was answered
    }
    return read.toByteArray();
  }
}
