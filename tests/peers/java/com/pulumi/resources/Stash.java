// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/Stash.java
package com.pulumi.resources;

import com.pulumi.core.Output;

public class Stash extends CustomResource {
    public Stash(String name, StashArgs args) {
        this(name, args, null);
    }

    public Stash(String name, StashArgs args, CustomResourceOptions options) {
        super("pulumi:index:Stash", name, args, options);
    }

    public Output<Object> output() {
        throw new UnsupportedOperationException();
    }

    public Output<Object> input() {
        throw new UnsupportedOperationException();
    }
}
