/** H2: its database type, dialect and the Java functions its migrations register. Private API. */
package dev.trestle.store.internal.h2;
