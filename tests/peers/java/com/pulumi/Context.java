// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/Context.java and
// .../com/pulumi/context/ConfigContext.java (config(), config(String)); log() and the OutputContext
// members are left out.
package com.pulumi;

import com.pulumi.core.Output;

public interface Context {
    String projectName();

    String stackName();

    default String organizationName() {
        throw new UnsupportedOperationException();
    }

    Context export(String name, Output<?> output);

    default <T> Context export(String name, T output) {
        throw new UnsupportedOperationException();
    }

    Config config();

    Config config(String name);
}
