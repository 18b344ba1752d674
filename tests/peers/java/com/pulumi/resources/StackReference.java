// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/StackReference.java
package com.pulumi.resources;

import com.pulumi.core.Output;
import java.util.List;
import java.util.Map;

public class StackReference extends CustomResource {
    public StackReference(String name) {
        this(name, null, null);
    }

    public StackReference(String name, StackReferenceArgs args) {
        this(name, args, null);
    }

    public StackReference(String name, StackReferenceArgs args, CustomResourceOptions options) {
        super("pulumi:pulumi:StackReference", name, args, options);
    }

    public Output<String> name() {
        throw new UnsupportedOperationException();
    }

    public Output<Map<String, Object>> outputs() {
        throw new UnsupportedOperationException();
    }

    public Output<List<String>> secretOutputNames() {
        throw new UnsupportedOperationException();
    }

    public Output<?> output(String name) {
        throw new UnsupportedOperationException();
    }

    public Output<?> output(Output<String> name) {
        throw new UnsupportedOperationException();
    }

    public Output<?> requireOutput(String name) {
        throw new UnsupportedOperationException();
    }

    public Output<?> requireOutput(Output<String> name) {
        throw new UnsupportedOperationException();
    }
}
