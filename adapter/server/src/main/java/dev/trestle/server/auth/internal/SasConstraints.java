package dev.trestle.server.auth.internal;

import java.time.Instant;

/**
 * The checks account and table SAS share once the signature is valid: validity window, source IP,
 * protocol.
 */
final class SasConstraints {
  private SasConstraints() {}

  static void check(
      SignedRequest request, Instant now, Instant start, Instant expiry, String sip, String spr) {
    if (expiry == null) {
      throw AuthFailures.authenticationFailed("se is mandatory. Cannot be empty");
    }
    if (start != null && !expiry.isAfter(start)) {
      throw AuthFailures.authenticationFailed(
          "Signed expiry time [" + expiry + "] must be after signed start time [" + start + "]");
    }
    if ((start != null && now.isBefore(start)) || !now.isBefore(expiry)) {
      throw AuthFailures.authenticationFailed(
          "Signature not valid in the specified time frame: Start ["
              + (start == null ? "" : start)
              + "] - Expiry ["
              + expiry
              + "] - Current ["
              + now
              + "]");
    }
    if (sip != null && !IpRange.parse(sip).contains(request.remoteAddress())) {
      throw AuthFailures.sourceIpMismatch(request.remoteAddress());
    }
    if (spr != null) {
      switch (spr) {
        case "https" -> {
          if (!request.secure()) {
            throw AuthFailures.protocolMismatch();
          }
        }
        case "https,http", "http,https" -> {}
        default -> throw AuthFailures.authenticationFailed("Invalid spr '" + spr + "'.");
      }
    }
  }
}
