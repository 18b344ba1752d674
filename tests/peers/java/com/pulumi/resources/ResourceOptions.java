// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/ResourceOptions.java
// (resourceTransformations left out).
package com.pulumi.resources;

import com.pulumi.core.Alias;
import com.pulumi.core.Output;
import java.util.List;

public abstract class ResourceOptions {
    protected ResourceOptions() {
    }

    protected static abstract class Builder<T extends ResourceOptions, B extends Builder<T, B>> {
        protected Builder(T options) {
        }

        public B id(Output<String> id) {
            throw new UnsupportedOperationException();
        }

        public B id(String id) {
            throw new UnsupportedOperationException();
        }

        public B parent(Resource parent) {
            throw new UnsupportedOperationException();
        }

        public B dependsOn(Resource... dependsOn) {
            throw new UnsupportedOperationException();
        }

        public B dependsOn(Output<List<Resource>> dependsOn) {
            throw new UnsupportedOperationException();
        }

        public B dependsOn(List<Resource> dependsOn) {
            throw new UnsupportedOperationException();
        }

        public B protect(boolean protect) {
            throw new UnsupportedOperationException();
        }

        public B ignoreChanges(String... ignoreChanges) {
            throw new UnsupportedOperationException();
        }

        public B ignoreChanges(List<String> ignoreChanges) {
            throw new UnsupportedOperationException();
        }

        public B version(String version) {
            throw new UnsupportedOperationException();
        }

        public B provider(ProviderResource provider) {
            throw new UnsupportedOperationException();
        }

        public B customTimeouts(CustomTimeouts customTimeouts) {
            throw new UnsupportedOperationException();
        }

        public B aliases(Alias... aliases) {
            throw new UnsupportedOperationException();
        }

        @SafeVarargs
        public final B aliases(Output<Alias>... aliases) {
            throw new UnsupportedOperationException();
        }

        public B aliases(List<Output<Alias>> aliases) {
            throw new UnsupportedOperationException();
        }

        public B urn(String urn) {
            throw new UnsupportedOperationException();
        }

        public B replaceOnChanges(String... replaceOnChanges) {
            throw new UnsupportedOperationException();
        }

        public B replaceOnChanges(List<String> replaceOnChanges) {
            throw new UnsupportedOperationException();
        }

        public B retainOnDelete(boolean retainOnDelete) {
            throw new UnsupportedOperationException();
        }

        public B pluginDownloadURL(String pluginDownloadURL) {
            throw new UnsupportedOperationException();
        }

        public B hideDiffs(String... hideDiffs) {
            throw new UnsupportedOperationException();
        }

        public B hideDiffs(List<String> hideDiffs) {
            throw new UnsupportedOperationException();
        }

        public B replaceWith(Resource... replaceWith) {
            throw new UnsupportedOperationException();
        }

        public B replaceWith(List<Resource> replaceWith) {
            throw new UnsupportedOperationException();
        }

        public B replacementTrigger(Output<?> replacementTrigger) {
            throw new UnsupportedOperationException();
        }
    }
}
