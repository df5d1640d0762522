package dev.trestle.server.internal.xml;

/**
 * The error body of XML operations (ACL, service properties, stats), in the two shapes Azure
 * answers them (recorded answers of the service): the table service's own errors as OData XML,
 * {@code <m:error><m:code/><m:message xml:lang="en-US"/></m:error>}; the storage front end's
 * authentication and authorization failures as {@code
 * <Error><Code/><Message/>[<AuthenticationErrorDetail/>]</Error>}.
 */
public final class ErrorXml {
  private static final String METADATA_NAMESPACE =
      "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";

  private ErrorXml() {}

  /**
   * @param message the full message, including the {@code \nRequestId:…\nTime:…} lines the service
   *     appends
   * @param authenticationErrorDetail only for {@code AuthenticationFailed}; null to leave the
   *     element out
   */
  public static String write(String code, String message, String authenticationErrorDetail) {
    if (authenticationErrorDetail != null || isFrontEnd(code)) {
      return new XmlText()
          .open("Error")
          .element("Code", code)
          .element("Message", message)
          .element("AuthenticationErrorDetail", authenticationErrorDetail)
          .close("Error")
          .toString();
    }
    return new XmlText()
        .open("m:error xmlns:m=\"" + METADATA_NAMESPACE + "\"")
        .element("m:code", code)
        .open("m:message xml:lang=\"en-US\"")
        .text(message)
        .close("m:message")
        .close("m:error")
        .toString();
  }

  /** The failures the storage front end answers before the table service sees the request. */
  private static boolean isFrontEnd(String code) {
    return code.startsWith("Authentication")
        || code.startsWith("Authorization")
        || code.equals("NoAuthenticationInformation")
        || code.equals("InvalidAuthenticationInfo");
  }
}
