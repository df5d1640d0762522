package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchPayloadTest {

  @Test
  void oneChangesetHoldsEveryOperationBetweenTheBoundaries() {
    BatchPayload payload =
        new BatchPayload(
            List.of(
                new BatchPayload.Operation(
                    "PUT", "http://h/acct/t(PartitionKey='p',RowKey='1')", "{\"A\":1}"),
                new BatchPayload.Operation(
                    "POST", "http://h/acct/t", "{\"PartitionKey\":\"p\",\"RowKey\":\"2\"}")));
    String boundary = payload.contentType().replaceFirst("^multipart/mixed; boundary=", "");
    String body = new String(payload.body(), StandardCharsets.UTF_8);
    String changeset = body.split("boundary=")[1].split("\r\n")[0];

    assertThat(boundary).startsWith("batch_");
    assertThat(body)
        .startsWith("--" + boundary + "\r\n")
        .endsWith("--" + changeset + "--\r\n--" + boundary + "--\r\n");
    assertThat(body.split("--" + changeset + "\r\n")).hasSize(3);
    assertThat(body)
        .contains("\r\nPUT http://h/acct/t(PartitionKey='p',RowKey='1') HTTP/1.1\r\n")
        .contains("\r\nPOST http://h/acct/t HTTP/1.1\r\n")
        .contains("Content-Type: application/json\r\n\r\n{\"A\":1}\r\n");
  }

  @Test
  void anAnswerWithOnlySuccessesHasNoFailure() {
    String answer =
        "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n"
            + "--changesetresponse_1\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
            + "--changesetresponse_1\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
            + "--changesetresponse_1--\r\n--batchresponse_1--\r\n";
    assertThat(BatchPayload.failure(answer)).isEmpty();
  }

  @Test
  void aFailedOperationIsFoundByItsIndexedMessage() {
    String json =
        "--changesetresponse_1\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 409 Conflict\r\n"
            + "Content-Type: application/json;odata=minimalmetadata\r\n\r\n{\"odata.error\":{\"code\":\"EntityAlreadyExists\","
            + "\"message\":{\"lang\":\"en-US\",\"value\":\"37:The specified entity already exists.\\nRequestId:x\"}}}\r\n";
    assertThat(BatchPayload.failure(json))
        .hasValue(new BatchPayload.Failure(37, 409, "EntityAlreadyExists"));

    String xml =
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/xml\r\n\r\n<?xml version=\"1.0\"?><error>"
            + "<code>InvalidInput</code><message xml:lang=\"en-US\">2:Bad value.</message></error>";
    assertThat(BatchPayload.failure(xml))
        .hasValue(new BatchPayload.Failure(2, 400, "InvalidInput"));

    assertThat(BatchPayload.failure("HTTP/1.1 404 Not Found\r\n\r\n{}"))
        .hasValue(new BatchPayload.Failure(0, 404, ""));
  }
}
