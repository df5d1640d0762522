package dev.trestle.server.internal.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trestle.TableException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BatchRequestParserTest {
  private static final String TYPE = "multipart/mixed; boundary=batch_1";

  private static BatchRequestParser.Batch parse(String body) {
    return BatchRequestParser.parse(TYPE, body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsAChangeSetWithCrlfOrBareLf() {
    String crlf =
        """
        --batch_1
        Content-Type: multipart/mixed; boundary="cs_1"

        --cs_1
        Content-Type: application/http
        Content-Transfer-Encoding: binary
        Content-ID: 7

        POST http://127.0.0.1:10002/acct/t1 HTTP/1.1
        Content-Type: application/json
        Prefer: return-no-content

        {"PartitionKey":"p","RowKey":"é"}
        --cs_1
        Content-Type: application/http

        DELETE http://127.0.0.1:10002/acct/t1(PartitionKey='p',RowKey='x') HTTP/1.1
        If-Match: *

        --cs_1--
        --batch_1--
        """;
    for (String body : new String[] {crlf.replace("\n", "\r\n"), crlf}) {
      BatchRequestParser.Batch batch = parse(body);
      assertThat(batch.changeSet()).hasSize(2);
      var insert = batch.changeSet().get(0);
      assertThat(insert.method()).isEqualTo("POST");
      assertThat(insert.headers().get("prefer")).isEqualTo("return-no-content");
      assertThat(new String(insert.body(), StandardCharsets.UTF_8))
          .isEqualTo("{\"PartitionKey\":\"p\",\"RowKey\":\"é\"}");
      var delete = batch.changeSet().get(1);
      assertThat(delete.method()).isEqualTo("DELETE");
      assertThat(delete.body()).isEmpty();
      assertThat(BatchRequestParser.pathAndQuery(delete.target()))
          .containsExactly("/acct/t1(PartitionKey='p',RowKey='x')", null);
    }
  }

  @Test
  void malformedBodiesAreInvalidInput() {
    for (String body :
        new String[] {
          "",
          "garbage",
          "--batch_1\r\nContent-Type: application/http\r\n\r\nNOT HTTP\r\n--batch_1--",
          "--batch_1\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nContent-Type: application/http\r\n\r\nPOST /a/t HTTP/1.1\r\n",
          "--batch_1\r\nContent-Type: multipart/mixed\r\n\r\n--batch_1--"
        }) {
      assertThatThrownBy(() -> parse(body)).as(body).isInstanceOf(TableException.class);
    }
    assertThatThrownBy(() -> BatchRequestParser.parse("application/json", new byte[0]))
        .isInstanceOf(TableException.class);
  }
}
