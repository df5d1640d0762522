/** Change feeds: enabling a table's feed, reading it by position token, sweeping old changes. */
package dev.trestle.store.internal.feed;
