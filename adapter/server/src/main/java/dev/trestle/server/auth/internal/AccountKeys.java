package dev.trestle.server.auth.internal;

import dev.trestle.server.auth.SharedKeySigner;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The decoded keys of each account, validated once when the server is configured. */
public final class AccountKeys {
  private final Map<String, List<SharedKeySigner>> keys;

  public AccountKeys(Map<String, List<String>> base64Keys) {
    Map<String, List<SharedKeySigner>> decoded = new HashMap<>();
    base64Keys.forEach(
        (account, accountKeys) -> {
          if (account == null || account.isEmpty()) {
            throw new IllegalArgumentException("Account name is empty: give every account a name");
          }
          if (accountKeys == null || accountKeys.isEmpty()) {
            throw new IllegalArgumentException(
                "Account '" + account + "' has no key: give it one or two base64 keys");
          }
          decoded.put(
              account,
              accountKeys.stream().map(key -> new SharedKeySigner(decode(account, key))).toList());
        });
    this.keys = Map.copyOf(decoded);
  }

  private static byte[] decode(String account, String key) {
    try {
      byte[] bytes = Base64.getDecoder().decode(key == null ? "" : key.trim());
      if (bytes.length == 0) {
        throw new IllegalArgumentException("empty");
      }
      return bytes;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Key of account '"
              + account
              + "' is not valid base64: give the account key exactly as a storage connection string holds it",
          e);
    }
  }

  /** The account's keys, or an empty list when the account is not configured. */
  public List<SharedKeySigner> of(String account) {
    return keys.getOrDefault(account, List.of());
  }
}
