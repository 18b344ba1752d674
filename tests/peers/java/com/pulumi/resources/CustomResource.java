// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/CustomResource.java
// (constructors) and names/ident.go's reserved resource getters (id(), urn()).
package com.pulumi.resources;

import com.pulumi.core.Output;

public class CustomResource extends Resource {
    public CustomResource(String type, String name, ResourceArgs args, CustomResourceOptions options) {
        super(type, name, true, args, options);
    }

    protected CustomResource(String type, String name, ResourceArgs args, CustomResourceOptions options,
            boolean dependency) {
        super(type, name, true, args, options);
    }

    public Output<String> id() {
        throw new UnsupportedOperationException();
    }
}
