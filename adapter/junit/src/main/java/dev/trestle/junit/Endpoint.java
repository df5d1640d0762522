package dev.trestle.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the account's table endpoint, e.g. {@code http://127.0.0.1:PORT/devstoreaccount1}, into a
 * {@code String} or {@link java.net.URI} parameter.
 */
@Documented
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface Endpoint {}
