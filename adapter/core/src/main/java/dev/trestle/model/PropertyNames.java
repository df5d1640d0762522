package dev.trestle.model;

import dev.trestle.TableErrorCode;
import dev.trestle.TableException;

/**
 * The service's rule for property names: a C# identifier that is also a valid XML name, at most 255
 * characters. Reserved names ({@code PartitionKey}, {@code RowKey}, {@code Timestamp}) pass this
 * check; the caller decides what they mean.
 */
public final class PropertyNames {
  private PropertyNames() {}

  /** Throws PropertyNameTooLong or PropertyNameInvalid. */
  public static void validate(String name) {
    if (name.length() > TableLimits.MAX_PROPERTY_NAME_LENGTH) {
      throw new TableException(
          TableErrorCode.PROPERTY_NAME_TOO_LONG,
          "The property name exceeds the maximum allowed length ("
              + TableLimits.MAX_PROPERTY_NAME_LENGTH
              + ").");
    }
    if (!isValid(name)) {
      throw new TableException(
          TableErrorCode.PROPERTY_NAME_INVALID, "The property name is invalid.");
    }
  }

  /** True when the name follows the character rules (length aside). */
  public static boolean isValid(String name) {
    if (name.isEmpty()) {
      return false;
    }
    int first = name.codePointAt(0);
    if (!isIdentifierStart(first) || !isXmlNameStart(first)) {
      return false;
    }
    for (int i = Character.charCount(first); i < name.length(); ) {
      int cp = name.codePointAt(i);
      if (!isIdentifierPart(cp) || !isXmlNameChar(cp)) {
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  // C# (ECMA-334) identifier-start-character: a letter of the Unicode classes Lu, Ll, Lt, Lm, Lo,
  // Nl, or '_'.
  private static boolean isIdentifierStart(int cp) {
    return cp == '_' || isLetter(cp);
  }

  // C# identifier-part-character: letters plus Nd, Pc, Mn, Mc and Cf.
  private static boolean isIdentifierPart(int cp) {
    if (isLetter(cp)) {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.DECIMAL_DIGIT_NUMBER,
          Character.CONNECTOR_PUNCTUATION,
          Character.NON_SPACING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.FORMAT ->
          true;
      default -> false;
    };
  }

  private static boolean isLetter(int cp) {
    return switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.LETTER_NUMBER ->
          true;
      default -> false;
    };
  }

  // XML 1.0 (fifth edition) NameStartChar, without ':' which no C# identifier holds anyway.
  private static boolean isXmlNameStart(int cp) {
    return (cp >= 'A' && cp <= 'Z')
        || cp == '_'
        || (cp >= 'a' && cp <= 'z')
        || (cp >= 0xC0 && cp <= 0xD6)
        || (cp >= 0xD8 && cp <= 0xF6)
        || (cp >= 0xF8 && cp <= 0x2FF)
        || (cp >= 0x370 && cp <= 0x37D)
        || (cp >= 0x37F && cp <= 0x1FFF)
        || (cp >= 0x200C && cp <= 0x200D)
        || (cp >= 0x2070 && cp <= 0x218F)
        || (cp >= 0x2C00 && cp <= 0x2FEF)
        || (cp >= 0x3001 && cp <= 0xD7FF)
        || (cp >= 0xF900 && cp <= 0xFDCF)
        || (cp >= 0xFDF0 && cp <= 0xFFFD)
        || (cp >= 0x10000 && cp <= 0xEFFFF);
  }

  // XML 1.0 (fifth edition) NameChar.
  private static boolean isXmlNameChar(int cp) {
    return isXmlNameStart(cp)
        || cp == '-'
        || cp == '.'
        || (cp >= '0' && cp <= '9')
        || cp == 0xB7
        || (cp >= 0x300 && cp <= 0x36F)
        || (cp >= 0x203F && cp <= 0x2040);
  }
}
