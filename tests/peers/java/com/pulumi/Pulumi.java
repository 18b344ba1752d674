// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/Pulumi.java
package com.pulumi;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

public interface Pulumi {
    static void run(Consumer<Context> stack) {
        throw new UnsupportedOperationException();
    }

    static CompletableFuture<Integer> runAsync(Consumer<Context> stack) {
        throw new UnsupportedOperationException();
    }
}
