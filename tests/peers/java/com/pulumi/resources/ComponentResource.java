// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/ComponentResource.java
package com.pulumi.resources;

public class ComponentResource extends Resource {
    public ComponentResource(String type, String name) {
        super(type, name, false, null, null);
    }

    public ComponentResource(String type, String name, ComponentResourceOptions options) {
        super(type, name, false, null, options);
    }

    public ComponentResource(String type, String name, ResourceArgs args, ComponentResourceOptions options,
            boolean remote) {
        super(type, name, false, args, options);
    }
}
