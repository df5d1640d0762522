package dev.trestle.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The {@link dev.trestle.TableService} a {@link DatabaseTest} of the annotated class gets has
 * relaxed transactions enabled: a subclass of a test class so annotated runs the same tests with
 * the mode on, to show standard requests are answered the same.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface RelaxedTransactionsOn {}
