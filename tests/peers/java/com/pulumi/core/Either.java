// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Either<L, R> as pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/core/Output.java uses it
// (Either.ofLeft(value), Either::<L, R>ofLeft, Either.ofRight); Left.java/Right.java are its cases.
package com.pulumi.core;

public abstract class Either<L, R> {
    protected Either() {
    }

    public static <L, R> Either<L, R> ofLeft(L value) {
        throw new UnsupportedOperationException();
    }

    public static <L, R> Either<L, R> ofRight(R value) {
        throw new UnsupportedOperationException();
    }
}
