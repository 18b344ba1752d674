// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/ProviderResource.java
package com.pulumi.resources;

public abstract class ProviderResource extends CustomResource {
    protected ProviderResource(String package_, String name, ResourceArgs args, CustomResourceOptions options,
            boolean dependency) {
        super("pulumi:providers:" + package_, name, args, options, dependency);
    }
}
