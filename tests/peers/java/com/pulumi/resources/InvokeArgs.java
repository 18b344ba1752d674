// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// InvokeArgs as pulumi/pulumi-java's codegen uses it (pkg/codegen/java/gen.go: the base class of
// function Args; functions without inputs take InvokeArgs itself), with its Empty instance.
package com.pulumi.resources;

public abstract class InvokeArgs extends InputArgs {
    public static final InvokeArgs Empty = null;
}
