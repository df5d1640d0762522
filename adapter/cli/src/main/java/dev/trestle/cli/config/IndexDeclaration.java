package dev.trestle.cli.config;

import dev.trestle.EdmType;
import dev.trestle.IndexedProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A property index the configuration declares ({@code --index [ACCOUNT/]TABLE:PROPERTY:TYPE}, or
 * over several properties in order {@code TABLE:PROPERTY:TYPE+PROPERTY:TYPE...}), which {@code
 * serve} creates at start-up unless it exists.
 *
 * @param account the account owning the table, or null for the server's first account
 */
public record IndexDeclaration(String account, String table, List<IndexedProperty> properties) {
  private static final Pattern FORM =
      Pattern.compile("(?:([a-z0-9]{3,24})/)?([A-Za-z][A-Za-z0-9]{2,62}):(.+)");

  private static final Pattern PROPERTY = Pattern.compile("([^:+\\s]+):([A-Za-z.0-9]+)");

  public IndexDeclaration {
    properties = List.copyOf(properties);
  }

  /**
   * Every declaration the setting gives, each checked; a bad one names the setting and the form.
   */
  public static List<IndexDeclaration> resolve(Configuration configuration, List<String> flags) {
    List<IndexDeclaration> declarations = new ArrayList<>();
    Configuration.Value source =
        configuration.resolve(
            Setting.INDEX, flags == null || flags.isEmpty() ? null : String.join(",", flags));
    for (String item : configuration.list(Setting.INDEX, flags)) {
      declarations.add(parse(item, source));
    }
    return declarations;
  }

  static IndexDeclaration parse(String text, Configuration.Value source) {
    Matcher m = FORM.matcher(text);
    List<IndexedProperty> properties = m.matches() ? properties(m.group(3)) : null;
    if (properties == null) {
      throw Configuration.invalid(
          Setting.INDEX,
          new Configuration.Value(text, source.source()),
          "[ACCOUNT/]TABLE:PROPERTY:TYPE, e.g. Orders:Status:String, TYPE one of String, Int32, Int64,"
              + " Double, Boolean, DateTime, Guid, Binary; over several properties in order"
              + " Orders:Status:String+Placed:DateTime");
    }
    return new IndexDeclaration(m.group(1), m.group(2), properties);
  }

  /** {@code PROPERTY:TYPE+PROPERTY:TYPE...}; null when malformed. */
  private static List<IndexedProperty> properties(String text) {
    List<IndexedProperty> properties = new ArrayList<>();
    for (String part : text.split("\\+", -1)) {
      Matcher m = PROPERTY.matcher(part);
      Optional<EdmType> type = m.matches() ? typeNamed(m.group(2)) : Optional.empty();
      if (type.isEmpty()) {
        return null;
      }
      properties.add(new IndexedProperty(m.group(1), type.get()));
    }
    return properties;
  }

  /**
   * The type an index is declared for, as operators write it: {@code Int32} or {@code Edm.Int32},
   * in any case (the configuration and {@code trestle index} alike).
   */
  public static Optional<EdmType> typeNamed(String name) {
    String wanted = name.startsWith("Edm.") ? name : "Edm." + name;
    for (EdmType type : EdmType.values()) {
      if (type.odataName().equalsIgnoreCase(wanted)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return (account == null ? "" : account + "/")
        + table
        + ":"
        + String.join(
            "+",
            properties.stream()
                .map(p -> p.name() + ":" + p.type().odataName().substring(4))
                .toList());
  }
}
