"""The pandas data layer: a deal as frames (`frames`), many deals played by bots (`simulate`)
and the strategy lab's numbers (`lab`). Built on the engine; pandas is imported where a frame
is made, so `import penang_lib` stays light."""
