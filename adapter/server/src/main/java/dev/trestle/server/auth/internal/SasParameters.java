package dev.trestle.server.auth.internal;

import java.util.Set;

/**
 * The query parameters that belong to a shared access signature. The server strips them before it
 * reads OData options, and Shared Key signing never covers them.
 */
public final class SasParameters {

  /** Account SAS and table SAS parameter names, as Azure spells them (case-sensitive). */
  public static final Set<String> NAMES =
      Set.of(
          "sv", "ss", "srt", "sp", "st", "se", "sip", "spr", "ses", "sig", "tn", "si", "spk", "srk",
          "epk", "erk");

  private SasParameters() {}

  /** True when {@code name} is a SAS parameter rather than an OData or operation parameter. */
  public static boolean isSasParameter(String name) {
    return NAMES.contains(name);
  }
}
