package dev.trestle.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The {@link dev.trestle.TableService} a {@link DatabaseTest} of the annotated class gets has its
 * extensions switched off: a subclass of a test class so annotated runs the same tests both ways.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface ExtensionsOff {}
