package dev.trestle.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvRecordsTest {
  private static List<List<String>> read(String text) throws IOException {
    CsvRecords records = new CsvRecords(new StringReader(text));
    List<List<String>> all = new ArrayList<>();
    for (List<String> r = records.next(); r != null; r = records.next()) {
      all.add(r);
    }
    return all;
  }

  @Test
  void quotedFieldsKeepCommasQuotesAndLineBreaksAndAnyLineEndEndsARecord() throws IOException {
    assertThat(read("a,\"b,\"\"c\"\"\r\nd\",\r\nx,y\ry2\nlast"))
        .containsExactly(
            List.of("a", "b,\"c\"\r\nd", ""), List.of("x", "y"), List.of("y2"), List.of("last"));
  }

  @Test
  void whatIsWrittenReadsBackTheSame() throws IOException {
    List<String> fields = List.of("", "plain", "a,b", "say \"hi\"", "two\nlines", " \uD83D\uDE00 ");
    StringWriter out = new StringWriter();
    CsvRecords.write(out, fields);
    assertThat(out.toString()).endsWith("\r\n").startsWith(",plain,\"a,b\",\"say \"\"hi\"\"\"");
    assertThat(read(out.toString())).containsExactly(fields);
  }

  @Test
  void anUnclosedQuoteIsAnError() {
    assertThatThrownBy(() -> read("a,\"b")).isInstanceOf(IOException.class);
  }
}
