/**
 * A JUnit 5 extension that runs the Table API in the test's own JVM: annotate a test class with
 * {@link dev.trestle.junit.TrestleTest} (or register a {@link dev.trestle.junit.TrestleExtension})
 * and take a {@link dev.trestle.junit.Trestle} handle, a {@code @ConnectionString String}, an
 * {@code @Endpoint String}, the embedded {@link dev.trestle.TableService} or the Azure SDK's {@code
 * TableServiceClient} as parameters.
 */
package dev.trestle.junit;
