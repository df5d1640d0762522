package dev.trestle.server.auth.internal;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The {@code sip} of a SAS: one address or an inclusive range {@code from-to}, IPv4 or IPv6, never
 * resolved by DNS.
 */
record IpRange(byte[] from, byte[] to) {

  static IpRange parse(String sip) {
    int dash = sip.indexOf('-');
    byte[] from = literal(dash < 0 ? sip : sip.substring(0, dash));
    byte[] to = dash < 0 ? from : literal(sip.substring(dash + 1));
    if (from == null || to == null || from.length != to.length) {
      throw AuthFailures.authenticationFailed("Invalid sip '" + sip + "'.");
    }
    return new IpRange(from, to);
  }

  boolean contains(String address) {
    byte[] ip = address == null ? null : literal(address);
    if (ip == null) {
      return false;
    }
    if (ip.length != from.length) {
      return false;
    }
    BigInteger value = new BigInteger(1, ip);
    return value.compareTo(new BigInteger(1, from)) >= 0
        && value.compareTo(new BigInteger(1, to)) <= 0;
  }

  /**
   * The address bytes of an IP literal (IPv4-mapped IPv6 reduced to IPv4), or null when it is not a
   * literal.
   */
  static byte[] literal(String text) {
    String value = text.trim();
    if (value.startsWith("[") && value.endsWith("]")) {
      value = value.substring(1, value.length() - 1);
    }
    if (value.isEmpty()) {
      return null;
    }
    if (value.indexOf(':') < 0) {
      return ipv4(value);
    }
    // Only hex digits, colons, dots and a zone id reach InetAddress, so it never does a name
    // lookup.
    if (!value.matches("[0-9A-Fa-f:.]+(%[0-9A-Za-z]+)?")) {
      return null;
    }
    try {
      return InetAddress.getByName(value).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static byte[] ipv4(String value) {
    String[] parts = value.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      if (!parts[i].matches("[0-9]{1,3}")) {
        return null;
      }
      int octet = Integer.parseInt(parts[i]);
      if (octet > 255) {
        return null;
      }
      bytes[i] = (byte) octet;
    }
    return bytes;
  }
}
