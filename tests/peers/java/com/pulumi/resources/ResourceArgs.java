// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/ResourceArgs.java
package com.pulumi.resources;

public abstract class ResourceArgs extends InputArgs {
}
