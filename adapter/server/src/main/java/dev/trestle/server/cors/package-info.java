/** CORS rules of the Table service: preflight answers and the headers added to actual responses. */
package dev.trestle.server.cors;
