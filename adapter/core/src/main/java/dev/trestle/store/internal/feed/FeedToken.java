package dev.trestle.store.internal.feed;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * A change's position as its token: the feed's epoch (when it was enabled, so a token of an earlier
 * feed of the table is told apart) and the position, {@code epoch.position} in decimal.
 */
record FeedToken(long epoch, long position) {

  String text() {
    return epoch + "." + position;
  }

  static FeedToken parse(String text) {
    int dot = text.indexOf('.');
    try {
      if (dot > 0) {
        FeedToken token =
            new FeedToken(
                Long.parseLong(text.substring(0, dot)), Long.parseLong(text.substring(dot + 1)));
        if (token.position >= 0) {
          return token;
        }
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new TableException(
        TableErrorCode.INVALID_INPUT, "'" + text + "' is not a change feed position token.");
  }
}
