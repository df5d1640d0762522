package dev.trestle.cli.config;

import dev.trestle.model.TableLimits;
import java.util.Base64;
import java.util.List;

/** A storage account the server accepts, with one or two base64 keys. */
public record Account(String name, List<String> keys) {

  /** The storage emulator's development account, served when none is configured. */
  public static final String DEV_ACCOUNT = "devstoreaccount1";

  public Account {
    keys = List.copyOf(keys);
  }

  /** Parses {@code NAME:KEY[:KEY2]}; the error never repeats the key. */
  public static Account parse(String text, Configuration.Value source) {
    String[] parts = text.split(":", -1);
    if (parts.length < 2
        || parts.length > 3
        || !TableLimits.ACCOUNT_NAME.matcher(parts[0]).matches()) {
      throw invalid(
          source, "NAME:BASE64KEY[:BASE64KEY2] with a name of 3-24 lower-case letters or digits");
    }
    for (int i = 1; i < parts.length; i++) {
      try {
        if (parts[i].isEmpty() || Base64.getDecoder().decode(parts[i]).length == 0) {
          throw new IllegalArgumentException("empty");
        }
      } catch (IllegalArgumentException e) {
        throw invalid(
            source,
            "NAME:BASE64KEY[:BASE64KEY2], but the key of account '" + parts[0] + "' is not base64");
      }
    }
    return new Account(parts[0], List.of(parts).subList(1, parts.length));
  }

  private static ConfigurationException invalid(Configuration.Value source, String expected) {
    return new ConfigurationException(
        Setting.ACCOUNT.flag()
            + " must be "
            + expected
            + (source.source().equals(Setting.ACCOUNT.flag())
                ? ""
                : " (from " + source.source() + ")")
            + ".");
  }

  @Override
  public String toString() {
    return "Account[" + name + ", " + keys.size() + " key(s)]";
  }
}
