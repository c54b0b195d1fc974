// The samples run: the console program builds its level's navigation mesh and walks its agent
// to the goal, and the Unity script,
// driven frame by frame as Unity would (Awake, Start, then Update), flies its character to the
// goal on a Warframe map.
using System;
using System.IO;
using System.Reflection;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class SampleTests
    {
        // Unity calls its messages (Awake, Start, Update, OnDestroy) whatever their access.
        private static void Send(object behaviour, string message)
        {
            MethodInfo method = behaviour.GetType().GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            Assert.That(method, Is.Not.Null, behaviour.GetType().Name + "." + message);
            method.Invoke(behaviour, null);
        }

        [Test]
        public void TheConsoleSampleWalksItsAgentToTheGoal()
        {
            string level = TestData.Require("meshes/recastnavigation/nav_test.obj");
            Assembly sample = Assembly.LoadFrom(Path.Combine(TestData.AssemblyDirectory, "WalkAgent.exe"));
            MethodInfo main = sample.EntryPoint;
            TextWriter console = Console.Out;
            var output = new StringWriter();
            int exitCode;
            try
            {
                Console.SetOut(output);
                exitCode = (int)main.Invoke(null, new object[] { new[] { level } });
            }
            finally
            {
                Console.SetOut(console);
            }
            Console.WriteLine(output);
            Assert.That(exitCode, Is.EqualTo(0));
            Assert.That(output.ToString(), Is.StringContaining("arrived after"));
        }

        [Test]
        public void TheUnitySampleFliesItsCharacterToTheGoal()
        {
            string map = TestData.Require("voxel/warframe/Simple.3dmap");
            UnityEngine.Debug.Messages.Clear();
            var level = new VoxelLevel { mapPath = map };
            Send(level, "Awake");
            var npc = new VoxelNpc { level = level, goal = new UnityEngine.Vector3Int(48, 85, 45), flying = true, speed = 6f, name = "drone" };
            npc.transform.position = new UnityEngine.Vector3(56, 76, 52);
            Send(npc, "Start");
            UnityEngine.Time.deltaTime = 1f / 30f;
            int frames = 0;
            while (!npc.Arrived && frames < 10000)
            {
                Send(npc, "Update");
                ++frames;
            }
            Send(npc, "OnDestroy");
            Send(level, "OnDestroy");
            foreach (string message in UnityEngine.Debug.Messages) Console.WriteLine(message);
            Assert.That(npc.Arrived, "after " + frames + " frames");
            UnityEngine.Vector3 at = npc.transform.position;
            Assert.That(UnityEngine.Vector3.Distance(at, new UnityEngine.Vector3(48, 85, 45)), Is.LessThan(1e-3f));
            Assert.That(UnityEngine.Debug.Messages, Has.Some.StringContaining("drone arrived"));
        }
    }
}
