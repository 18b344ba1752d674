// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/codegen/internal/Strings.java
package com.pulumi.codegen.internal;

public class Strings {
    public static int length(String s) {
        throw new UnsupportedOperationException();
    }
}
