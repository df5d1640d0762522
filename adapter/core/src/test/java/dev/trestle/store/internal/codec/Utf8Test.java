package dev.trestle.store.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page budget counts a document read as bytes as it counted the document's text. */
class Utf8Test {
  @Test
  void charCountIsTheLengthOfTheDecodedText() {
    for (String text :
        List.of(
            "",
            "plain",
            "\u00e9t\u00e9",
            "\u0800\ud7ff\ue000\uffff",
            "a\ud83d\ude00b",
            "\u0001",
            "eight ascii bytes, then \u00e9 and \ud83d\ude00 within a run of eight, and a tail")) {
      assertThat(Utf8.charCount(text.getBytes(StandardCharsets.UTF_8)))
          .as(text)
          .isEqualTo(text.length());
    }
  }

  @Test
  void plainUtf8IsWhatDecodesToItself() {
    for (String text :
        List.of(
            "",
            "plain",
            "\u00e9t\u00e9",
            "\u07ff\u0800\ud7ff",
            "\ue000",
            "\uffff",
            "\u0001",
            "a\u0000")) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      char[] chars = text.toCharArray();
      assertThat(UnitOrderText.isPlainUtf8(utf8, 0, utf8.length))
          .as(text)
          .isEqualTo(UnitOrderText.isPlain(chars, 0, chars.length));
    }
  }
}
