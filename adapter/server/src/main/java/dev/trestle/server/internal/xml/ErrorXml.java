package dev.trestle.server.internal.xml;

/**
 * The error body of XML operations (ACL, service properties, stats): {@code
 * <Error><Code/><Message/>[<AuthenticationErrorDetail/>]</Error>}.
 */
public final class ErrorXml {
  private ErrorXml() {}

  /**
   * @param message the full message, including the {@code \nRequestId:…\nTime:…} lines the service
   *     appends
   * @param authenticationErrorDetail only for {@code AuthenticationFailed}; null to leave the
   *     element out
   */
  public static String write(String code, String message, String authenticationErrorDetail) {
    return new XmlText()
        .open("Error")
        .element("Code", code)
        .element("Message", message)
        .element("AuthenticationErrorDetail", authenticationErrorDetail)
        .close("Error")
        .toString();
  }
}
