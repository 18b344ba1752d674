// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/Resource.java
package com.pulumi.resources;

import com.pulumi.core.Output;
import java.util.Set;

public abstract class Resource {
    protected Resource(String type, String name, boolean custom, ResourceArgs args, ResourceOptions options) {
        throw new UnsupportedOperationException();
    }

    public String pulumiResourceType() {
        throw new UnsupportedOperationException();
    }

    public String pulumiResourceName() {
        throw new UnsupportedOperationException();
    }

    public Set<Resource> pulumiChildResources() {
        throw new UnsupportedOperationException();
    }

    public Output<String> urn() {
        throw new UnsupportedOperationException();
    }
}
