// A stub of the few UnityEngine types the Unity sample uses (same names and signatures as
// Unity's), so that CI compiles the sample, and the tests drive it, without Unity. Nothing here
// is Unity's code: only what the sample needs, written from Unity's public documentation of the
// types' members. Time.deltaTime is settable here so that a test can play frames.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public class Object
    {
        public string name { get; set; }
    }

    public class Component : Object
    {
        private readonly Transform ownTransform;

        public Component() { ownTransform = this as Transform ?? new Transform(); }

        public Transform transform { get { return ownTransform; } }
    }

    public class Transform : Component
    {
        public Vector3 position { get; set; }
    }

    public class Behaviour : Component
    {
        public bool enabled { get; set; } = true;
    }

    public class MonoBehaviour : Behaviour
    {
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class SerializeField : Attribute
    {
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute
    {
        public TooltipAttribute(string tooltip) { this.tooltip = tooltip; }
        public readonly string tooltip;
    }

    public struct Vector3
    {
        public float x, y, z;

        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }

        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vector3 operator *(Vector3 a, float d) { return new Vector3(a.x * d, a.y * d, a.z * d); }
        public float magnitude { get { return (float)Math.Sqrt(x * x + y * y + z * z); } }

        public static float Distance(Vector3 a, Vector3 b) { return (a - b).magnitude; }

        public static Vector3 MoveTowards(Vector3 current, Vector3 target, float maxDistanceDelta)
        {
            Vector3 towards = target - current;
            float distance = towards.magnitude;
            if (distance <= maxDistanceDelta || distance == 0f) return target;
            return current + towards * (maxDistanceDelta / distance);
        }

        public override string ToString() { return string.Format("({0:F2}, {1:F2}, {2:F2})", x, y, z); }
    }

    public struct Vector3Int
    {
        public Vector3Int(int x, int y, int z) { this.x = x; this.y = y; this.z = z; }

        public int x { get; set; }
        public int y { get; set; }
        public int z { get; set; }

        public override string ToString() { return "(" + x + ", " + y + ", " + z + ")"; }
    }

    public static class Mathf
    {
        public static int RoundToInt(float f) { return (int)Math.Round(f); }
    }

    public static class Time
    {
        public static float deltaTime { get; set; } = 1f / 60f;
    }

    public static class Debug
    {
        /// <summary>What was logged, for the tests to read.</summary>
        public static readonly List<string> Messages = new List<string>();

        public static void Log(object message) { Messages.Add(message.ToString()); }
        public static void LogWarning(object message) { Messages.Add("warning: " + message); }
        public static void LogError(object message) { Messages.Add("error: " + message); }
    }
}
